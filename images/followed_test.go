package images

import (
	"context"
	"io"
	"reflect"
	"testing"
)

// labelEngine is an engine holding images with labels only: what Followed reads.
type labelEngine map[string]map[string]string

func (e labelEngine) ImageID(_ context.Context, ref string) (string, error) {
	if _, ok := e[ref]; ok {
		return "sha256:" + ref, nil
	}
	return "", nil
}
func (e labelEngine) ImageLabels(_ context.Context, ref string) (map[string]string, error) {
	return e[ref], nil
}
func (labelEngine) ImportImage(context.Context, io.Reader, string, map[string]string) (string, error) {
	panic("not building")
}
func (labelEngine) BuildImage(context.Context, io.Reader, BuildOptions) (string, error) {
	panic("not building")
}
func (labelEngine) ReadImageFile(context.Context, string, string) ([]byte, error) {
	panic("not reading")
}

// Followed reads from the images' labels the pins their build replaced with what the mirror
// served: with the images already there, a build still says the lock is stale.
func TestFollowed(t *testing.T) {
	c, err := Load("")
	if err != nil {
		t.Fatal(err)
	}
	java, _ := LangByName("java")
	cpp, _ := LangByName("cpp")
	jdk := c.Lock.Languages["java"].CompilePackages["openjdk-17-jdk-headless"]
	jre := c.Lock.Languages["java"].RunPackages["openjdk-17-jre-headless"]
	const served = "17.0.99+1-1~deb12u1"
	e := labelEngine{
		// Java's compile image followed the mirror for its JDK; its run image holds its pin.
		c.Compile(java).Ref("judge"): {LabelPackages: "openjdk-17-jdk-headless=" + served},
		c.Run(java).Ref("judge"):     {LabelPackages: "openjdk-17-jre-headless=" + jre},
		// An image from before images named their packages: it took its pins.
		c.Compile(cpp).Ref("judge"): {},
	}
	b := &Builder{Engine: e, Catalog: c, Prefix: "judge"}
	want := []Change{{Lang: "java", Package: "openjdk-17-jdk-headless", Pinned: jdk, Served: served, Line: "17."}}
	for _, langs := range [][]string{nil, {"java"}, {"cpp", "java"}} {
		got, err := b.Followed(context.Background(), langs...)
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("Followed(%v) = %+v, %v; want %+v", langs, got, err, want)
		}
	}
	if got, err := b.Followed(context.Background(), "pascal", "go"); err != nil || len(got) != 0 {
		t.Errorf("languages whose images are missing: %+v, %v; want none", got, err)
	}
	if _, err := b.Followed(context.Background(), "cobol"); err == nil {
		t.Error("an unknown language: no error")
	}
}
