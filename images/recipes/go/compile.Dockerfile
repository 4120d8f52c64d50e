# Go compile image: the pinned Go toolchain from the module proxy (checked against the SHA-256
# in images/lock.json by the judge before it reaches this build) on the Debian base.
# The standard library is compiled once here so a submission's build only compiles itself.
ARG BASE
FROM ${BASE}
COPY go /usr/local/go
ENV PATH=/usr/local/go/bin:/usr/sbin:/usr/bin:/sbin:/bin GOTOOLCHAIN=local GOPROXY=off \
    GOFLAGS=-mod=mod CGO_ENABLED=0 GOWORK=off GOENV=off
RUN GOCACHE=/opt/gocache go build -trimpath std && chmod -R a+rX /opt/gocache
COPY compile.sh /judge/compile
RUN chmod 0755 /judge/compile
