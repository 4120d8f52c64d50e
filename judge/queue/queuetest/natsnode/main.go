// Command natsnode is one node of a test NATS cluster: the judge's embedded server
// (queue.Open with a Cluster), in a process of its own so that a test can kill it with
// SIGKILL and start it again on the same store, as a machine that dies and comes back.
// queuetest.StartCluster builds and runs it; it is not part of the judge.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/botjudge/judge/judge/queue"
)

func main() {
	listen := flag.String("listen", "", "client address")
	store := flag.String("store", "", "JetStream storage directory")
	name := flag.String("name", "", "server name")
	cluster := flag.String("cluster", "", "this node's cluster address")
	routes := flag.String("routes", "", "every node's cluster address, comma-separated")
	replicas := flag.Int("replicas", 3, "replicas of the streams")
	replaces := flag.String("replaces", "", "servers lost for good whose place this node takes, comma-separated")
	ackWait := flag.Duration("ack-wait", queue.DefaultAckWait, "the jobs consumer's ack wait (the daemons' too)")
	flag.Parse()
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	var c queue.Cluster // none without -cluster: a server of its own
	if *cluster != "" {
		c = queue.Cluster{Name: "test", Listen: *cluster, Routes: strings.Split(*routes, ",")}
		if *replaces != "" {
			c.Replaces = strings.Split(*replaces, ",")
		}
	}
	q, err := queue.Open(ctx, queue.Options{Redelivery: queue.Redelivery{AckWait: *ackWait}, Listen: *listen, StoreDir: *store, ServerName: *name, Replicas: *replicas,
		Cluster: c, Logger: log})
	if err != nil {
		fmt.Fprintln(os.Stderr, "natsnode:", err)
		os.Exit(1)
	}
	fmt.Println("ready")
	<-ctx.Done()
	q.Close()
}
