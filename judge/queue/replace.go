package queue

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"golang.org/x/crypto/bcrypt"
)

// A node lost for good (its disk gone) stays a peer of the cluster's JetStream meta group and
// of each stream's group: three live nodes then count against a group of four, and a second
// loss leaves no majority. The node that takes its place (a new server_name, an empty store)
// lists it in nats.cluster.replaces, and once it has joined removes it from the peers. NATS
// takes that only from its system account, which no client of the judge's cluster has; so a
// replacing node's server gets a user of it whose password never leaves the process, and its
// other clients, with no credentials, are in the global account as on every node. The
// meta leader then moves the lost node's copies of each stream to live nodes, the new one
// among them.

// systemName is the user of the system account of a node that replaces others.
const systemName = "judge-system"

// systemUser gives opts a user of the system account with a random password, returned. The
// server holds the password's hash (bcrypt, which it tells from a plain one), and, with only
// the system account defined, keeps every client without credentials in the global account.
func systemUser(opts *server.Options) string {
	password := rand.Text()
	hash, _ := bcrypt.GenerateFromPassword([]byte(password), bcrypt.MinCost) // random: no need to be slow
	sys := server.NewAccount(server.DEFAULT_SYSTEM_ACCOUNT)
	opts.Accounts = []*server.Account{sys}
	opts.SystemAccount = sys.Name
	opts.Users = []*server.User{{Username: systemName, Password: string(hash), Account: sys}}
	return password
}

// replaceWait bounds how long a node waits for the cluster to remove the servers it replaces.
const replaceWait = 2 * time.Minute

// replace removes each of names from the cluster's peers. A name the cluster does not know
// (removed before: the node started again with the same setting) is done.
func (q *Queue) replace(ctx context.Context, names []string) error {
	ctx, cancel := context.WithTimeout(ctx, replaceWait)
	defer cancel()
	nc, err := nats.Connect("", nats.InProcessServer(q.srv.Server), nats.UserInfo(systemName, q.srv.system),
		nats.Name("judge: replacing lost servers"))
	if err != nil {
		return fmt.Errorf("queue: nats.cluster.replaces: connecting to the system account: %w", err)
	}
	defer nc.Close()
	for _, name := range names {
		if err := removePeer(ctx, nc, name); err != nil {
			return fmt.Errorf("queue: nats.cluster.replaces: removing server %q from the cluster: %w", name, err)
		}
		q.log.Info("queue: a lost server is no longer a peer of the cluster: its copies of the streams move to live nodes", "server", name)
	}
	return nil
}

// lostForGood checks that no server of o.Cluster.Replaces is up, before this node joins the
// cluster's JetStream (a node that joins stays a peer): removing a server up would stop its
// JetStream. A server of this node's name and routes, without JetStream, asks the cluster's
// servers which are up. Its waits end with ctx (Open's).
func lostForGood(ctx context.Context, o Options, log *slog.Logger) error {
	opts, err := serverOptions(o)
	if err != nil {
		return err
	}
	// Clients only on a loopback port of its own, not told to the cluster's clients. (A server
	// that takes no clients at all does not route either.)
	opts.JetStream, opts.Host, opts.Port, opts.Cluster.NoAdvertise = false, "127.0.0.1", server.RANDOM_PORT, true
	password := systemUser(opts)
	srv, err := server.NewServer(opts)
	if err != nil {
		return fmt.Errorf("queue: embedded server: %w", err)
	}
	srv.SetLoggerV2(&serverLogger{log: log.With("component", "nats-server"), writeErr: make(chan struct{}, 1)}, false, false, false)
	srv.Start()
	defer srv.WaitForShutdown()
	defer srv.Shutdown()
	if !srv.ReadyForConnections(serverReadyTimeout) {
		return fmt.Errorf("queue: nats.cluster.replaces: the server that asks the cluster did not start in %s", serverReadyTimeout)
	}
	nc, err := nats.Connect("", nats.InProcessServer(srv), nats.UserInfo(systemName, password))
	if err != nil {
		return fmt.Errorf("queue: nats.cluster.replaces: connecting to the system account: %w", err)
	}
	defer nc.Close()
	for deadline := time.Now().Add(routesWait); srv.NumRoutes() == 0; {
		if time.Now().After(deadline) {
			return fmt.Errorf("queue: nats.cluster.replaces: no other node of the cluster answered in %s: a node that replaces a lost one joins a cluster whose majority is up (routes %q)", routesWait, o.Cluster.Routes)
		}
		if err := sleep(ctx, 100*time.Millisecond); err != nil {
			return fmt.Errorf("queue: nats.cluster.replaces: waiting for a route to the cluster: %w", err)
		}
	}
	// The routes to the rest of the cluster, which the first tells of.
	if err := sleep(ctx, routesWait/10); err != nil {
		return fmt.Errorf("queue: nats.cluster.replaces: waiting for the cluster's routes: %w", err)
	}
	for _, name := range o.Cluster.Replaces {
		switch isUp, err := up(nc, name); {
		case err != nil:
			return fmt.Errorf("queue: nats.cluster.replaces: asking the cluster's servers whether %q is up: %w", name, err)
		case isUp:
			return fmt.Errorf("queue: nats.cluster.replaces: server %q is up (it answers the cluster's ping): list only a server lost for good", name)
		}
	}
	return nil
}

// routesWait bounds how long lostForGood waits for a route to the cluster.
const routesWait = 10 * time.Second

// removePeer asks the meta leader to remove the server name, again until it answers (a
// cluster still electing one does not).
func removePeer(ctx context.Context, nc *nats.Conn, name string) error {
	req, _ := json.Marshal(server.JSApiMetaServerRemoveRequest{Server: name})
	for {
		msg, err := nc.Request(server.JSApiRemoveServer, req, 5*time.Second)
		if err == nil {
			var resp server.JSApiMetaServerRemoveResponse
			if err := json.Unmarshal(msg.Data, &resp); err != nil {
				return fmt.Errorf("the cluster's answer: %w", err)
			}
			switch {
			case resp.Error == nil:
				return nil
			case resp.Error.ErrCode == uint16(server.JSClusterServerNotMemberErr):
				return nil // removed before
			case resp.Error.ErrCode != uint16(server.JSClusterServerMemberChangeInflightErr):
				return resp.Error
			}
			err = resp.Error
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("not done within %s (%v): is a majority of the cluster's nodes up?", replaceWait, err)
		case <-time.After(time.Second):
		}
	}
}

// upNow is how long a replacing node listens for the servers of the cluster to answer a ping.
const upNow = 2 * time.Second

// up reports whether the server name answers a ping of the cluster's servers now.
func up(nc *nats.Conn, name string) (bool, error) {
	inbox := nats.NewInbox()
	sub, err := nc.SubscribeSync(inbox)
	if err != nil {
		return false, err
	}
	defer sub.Unsubscribe()
	if err := nc.PublishRequest("$SYS.REQ.SERVER.PING.STATSZ", inbox, nil); err != nil {
		return false, err
	}
	deadline := time.Now().Add(upNow)
	for {
		msg, err := sub.NextMsg(time.Until(deadline))
		if err != nil {
			return false, nil // nats.ErrTimeout: every server up has answered
		}
		var stats server.ServerStatsMsg
		if json.Unmarshal(msg.Data, &stats) == nil && stats.Server.Name == name {
			return true, nil
		}
	}
}
