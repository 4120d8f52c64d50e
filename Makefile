# The two commands of README.md:
#   make demo   builds the images and judges the samples end to end
#   make test   builds the images and runs every test against the real Docker engine
# Both need root (debootstrap builds the Debian base image) and a running Docker engine.

GO      ?= go
JUDGE   := bin/judge
export JUDGE_DATA_DIR ?= $(CURDIR)/judge-data

.PHONY: judge images demo test bench vet daemon-image

judge:
	$(GO) build -o $(JUDGE) ./cmd/judge

# debootstrap comes from Debian's packages when it is missing.
images: judge
	@command -v debootstrap >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap)
	$(JUDGE) images build
	$(JUDGE) images list

demo: images
	$(JUDGE) games
	$(JUDGE) play --game amazes --seed 42 bots/amazes/cpp bots/amazes/java
	$(JUDGE) play --game ontherun --seed 1 bots/ontherun/go bots/ontherun/pascal

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)

# -p 1: packages run one after another, so timing tests do not share the two cores.
test: images vet
	JUDGE_REQUIRE_DOCKER=1 JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(GO) test -count=1 -p 1 -timeout 25m ./...

# The figures of BENCHMARKS.md.
bench: images
	JUDGE_REQUIRE_DOCKER=1 JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(GO) test -run '^$$' -bench RoundTrip -benchtime 5000x -count 3 ./sandbox/
	JUDGE_REQUIRE_DOCKER=1 JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(GO) test -run '^$$' -bench StartToFirstAnswer -benchtime 10x ./sandbox/
	JUDGE_REQUIRE_DOCKER=1 JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(GO) test -run '^$$' -bench Compile -benchtime 3x ./judge/build/
	JUDGE_REQUIRE_DOCKER=1 JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(GO) test -run '^$$' -bench Match -benchtime 20x -count 2 ./judge/games/

# The daemon's own image (Dockerfile), from the judge's Debian base image: no registry.
daemon-image: images
	CGO_ENABLED=0 $(GO) build -o $(JUDGE) ./cmd/judge
	docker build --build-arg BASE=$$(docker images judge/base --format '{{.Repository}}:{{.Tag}}' | head -n 1) -t judge:latest .
