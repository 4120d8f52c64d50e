# The two commands of README.md:
#   make demo   builds the images, starts the daemon on an embedded NATS server, judges a
#               sample match of each game through the queue and prints the results
#   make test   builds the images, installs gVisor, runs every test against the real Docker
#               engine, then the sandbox, build, match (the red team) and games suites again
#               under gVisor, with a build cache of their own so that compilers run under it too
# Both need root (debootstrap builds the Debian base image; gVisor is registered with the
# engine) and a running Docker engine.

GO      ?= go
JUDGE   := bin/judge
export JUDGE_DATA_DIR ?= $(CURDIR)/judge-data

.PHONY: docs release judge images gvisor browser netns local-tools wine demo test test-times test-short bench bench-separation bench-ladder bench-field bench-tournament bench-round bench-latency bench-portal bench-live bench-similar bench-referee bench-local load-portal season soak vet daemon-image

# The version every build stamps (judge version, results, replays, the portal's pages) and the
# contestants' downloads are named by (make release): the same words for the same commit.
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
STAMP   := -ldflags "-X main.version=$(VERSION)"

judge:
	$(GO) build $(STAMP) -o $(JUDGE) ./cmd/judge

# debootstrap comes from Debian's packages when it is missing.
images: judge
	@command -v debootstrap >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap)
	$(JUDGE) images build
	$(JUDGE) images list

# The main job end to end: the daemon on the embedded NATS server judges a sample match of
# each game, submitted through the queue; the results are printed; the daemon is stopped.
demo: images
	$(JUDGE) games
	@set -e; \
	$(JUDGE) serve & pid=$$!; \
	trap 'kill $$pid 2>/dev/null; wait $$pid 2>/dev/null' EXIT; \
	for i in $$(seq 100); do $(JUDGE) results >/dev/null 2>&1 && break; sleep 0.2; done; \
	$(JUDGE) submit --game amazes --seed 42 --wait bots/amazes/cpp bots/amazes/java; \
	$(JUDGE) submit --game ontherun --seed 1 --wait bots/ontherun/go bots/ontherun/pascal; \
	$(JUDGE) submit --game dropblock --seed 7 --wait bots/dropblock/cpp bots/dropblock/java bots/dropblock/go bots/dropblock/pascal; \
	$(JUDGE) submit --game langwars --seed 7 --wait bots/langwars/cpp bots/langwars/java bots/langwars/go bots/langwars/pascal; \
	$(JUDGE) submit --game snakecore --seed 7 --wait bots/snakecore/cpp bots/snakecore/java bots/snakecore/go bots/snakecore/pascal; \
	$(JUDGE) submit --game snakecore --seed 8 --wait bots/snakecore/python bots/snakecore/javascript bots/snakecore/rust bots/snakecore/csharp

vet:
	$(GO) vet ./... bots
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || (gofmt -l $$(git ls-files '*.go'); exit 1)
	@# The contestants' macOS and Windows builds (make release) stay builds: Linux's calls stay in
	@# their files.
	CGO_ENABLED=0 GOOS=darwin GOARCH=arm64 $(GO) build -o /dev/null ./cmd/judge
	CGO_ENABLED=0 GOOS=windows GOARCH=amd64 $(GO) build -o /dev/null ./cmd/judge

# The command reference, docs/commands, from the commands themselves (judge docs); the
# test TestCommandReference fails when it is not the binary's.
docs: judge
	rm -f docs/commands/*.md
	$(JUDGE) docs docs/commands

# Binaries for contestants, dist/judge-VERSION-OS-ARCH and their SHA256SUMS, the version
# stamped (judge version prints it). The macOS ones run the client commands (judge contest,
# the viewer, replays) and --local; the Windows one (judge-VERSION-windows-amd64.exe) the client
# commands. The sandbox is Linux's and says so elsewhere.
RELEASE := linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64
release:
	rm -rf dist && mkdir -p dist
	@for t in $(RELEASE); do \
		os=$${t%/*}; arch=$${t#*/}; exe=; [ $$os = windows ] && exe=.exe; echo "judge $(VERSION) for $$os/$$arch"; \
		CGO_ENABLED=0 GOOS=$$os GOARCH=$$arch $(GO) build -trimpath $(STAMP) \
			-o dist/judge-$(VERSION)-$$os-$$arch$$exe ./cmd/judge || exit 1; \
	done
	SOURCE_DATE_EPOCH=$$(git log -1 --format=%ct 2>/dev/null || date +%s) $(GO) run $(STAMP) ./cmd/judge docs --man dist/man
	cd dist && sha256sum judge-* > SHA256SUMS
	@cat dist/SHA256SUMS

# gVisor's runsc (pinned Debian package), registered with the engine as runtime "runsc".
gvisor:
	images/gvisor/install.sh

# Chromium, from Debian's packages, for the viewer's tests in a real browser.
browser:
	@command -v chromium >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium)

# Every language's compiler or runtime on this machine, from Debian's packages, for judge play
# --local's tests (judge/local, cmd/judge): each tool that is missing is installed.
LOCALTOOLS = g++:g++ fpc:fp-compiler javac:openjdk-17-jdk-headless python3:python3 node:nodejs rustc:rustc mcs:mono-mcs mono:mono-runtime
local-tools:
	@missing=""; for tp in $(LOCALTOOLS); do command -v $${tp%%:*} >/dev/null || missing="$$missing $${tp#*:}"; done; \
	[ -z "$$missing" ] || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing)

# Wine and MinGW, from Debian's packages, for the Windows build's test (cmd/judge: judge.exe
# against a real portal; MinGW builds the one DLL Wine 8 lacks, tools/wine).
wine:
	@[ -x /usr/lib/wine/wine64 ] || command -v wine64 >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends wine64)
	@command -v x86_64-w64-mingw32-gcc >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends gcc-mingw-w64-x86-64-win32)

# iproute2 and nsenter, for the partition test's network namespaces (judge/daemon).
netns:
	@command -v ip >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq iproute2)
	@command -v nsenter >/dev/null || (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq util-linux)

# Two lanes side by side, then the tests that must be alone. The packages whose tests start
# bots (BOTPKGS: they import sandboxtest or matchtest) run in one lane, under runc and then
# under gVisor with a data directory of its own (a cache hit from the first pass would skip its
# compilers); every other package (SYSPKGS: the daemon, the queue, the portal...) runs in the
# other, with its own data directory and TMPDIR, so that neither lane counts or sweeps the
# other's containers. In the lanes JUDGE_TEST_PHASE=shared: a test that times bots against the
# wall clock, starves them or removes images calls sandboxtest.Alone and skips; testtime alone
# then runs those tests one package at a time, nothing beside them, under each runtime, and
# the summary fails if one skipped in a lane did not run alone. Each pass keeps its go test
# -json events in judge-data/ci and prints what go test would without -json; make test ends,
# pass or fail, with the summary (BENCHMARKS.md: the lanes against one package at a time).
# The viewer's browser test leaves a screenshot of each game in judge-data/screenshots.
TESTTIME := bin/testtime
TESTRUNS := $(JUDGE_DATA_DIR)/ci
BOTPKGS   = $(shell $(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' ./... | grep -E ' .*(sandbox/sandboxtest|match/matchtest)' | cut -d' ' -f1 | grep -E '/(sandbox|judge/build|judge/match|judge/games)(/|$$)')
SYSPKGS = $(filter-out $(BOTPKGS),$(shell $(GO) list ./... bots))
TESTENV  := JUDGE_REQUIRE_DOCKER=1 JUDGE_REQUIRE_BROWSER=1 JUDGE_REQUIRE_LOCAL_TOOLS=1 JUDGE_REQUIRE_WINE=1 JUDGE_SCREENSHOTS=$(JUDGE_DATA_DIR)/screenshots
GOTEST   := $(GO) test -json -count=1 -timeout 40m
RUNSC    := JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR)/runsc JUDGE_TEST_RUNTIME=runsc
TESTSUMMARY := runc=$(TESTRUNS)/runc.json runc-sys=$(TESTRUNS)/runc-sys.json runsc=$(TESTRUNS)/runsc.json runc-alone=$(TESTRUNS)/runc-alone.json runsc-alone=$(TESTRUNS)/runsc-alone.json
test: images gvisor browser netns local-tools wine vet
	$(GO) build -o $(TESTTIME) ./tools/testtime
	mkdir -p $(TESTRUNS) && rm -f $(TESTRUNS)/*.json
	@status=0; bots="$(BOTPKGS)"; \
	tb=$$(mktemp -d /tmp/judge-bots.XXXXXX) && ts=$$(mktemp -d /tmp/judge-sys.XXXXXX) || exit 1; \
	trap 'rm -rf "$$tb" "$$ts"' EXIT; \
	$(TESTENV) JUDGE_TEST_PHASE=shared TMPDIR=$$ts JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR)/sys $(TESTTIME) run $(TESTRUNS)/runc-sys.json -- $(GOTEST) -p 1 $(SYSPKGS) & sys=$$!; \
	$(TESTENV) JUDGE_TEST_PHASE=shared TMPDIR=$$tb JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(TESTTIME) run $(TESTRUNS)/runc.json -- $(GOTEST) -p 1 $$bots || status=1; \
	$(TESTENV) JUDGE_TEST_PHASE=shared TMPDIR=$$tb $(RUNSC) $(TESTTIME) run $(TESTRUNS)/runsc.json -- $(GOTEST) -p 1 $$bots || status=1; \
	wait $$sys || status=1; \
	$(TESTENV) JUDGE_TEST_PHASE=alone TMPDIR=$$tb JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(TESTTIME) alone $(TESTRUNS)/runc-alone.json ./... -- $(GOTEST) || status=1; \
	$(TESTENV) JUDGE_TEST_PHASE=alone TMPDIR=$$tb $(RUNSC) $(TESTTIME) alone $(TESTRUNS)/runsc-alone.json $$bots -- $(GOTEST) || status=1; \
	$(TESTTIME) summary $(TESTSUMMARY) || status=1; \
	exit $$status

# Each package's time in the last make test (every pass), its ten slowest tests and its
# failures, ending with go test's own lines; it fails if a pass failed or never ran.
test-times:
	@$(GO) build -o $(TESTTIME) ./tools/testtime
	@$(TESTTIME) summary $(TESTSUMMARY)

# What needs neither Docker nor a browser nor a NATS cluster, with the engine out of reach on
# purpose: a test that needs Docker and does not ask sandboxtest fails or hangs here, not only
# on a machine without an engine. Under a minute on two cores (BENCHMARKS.md).
# -timeout 2m: a test that waits for an engine that is not there panics with its stack, naming
# itself, in two minutes rather than ten.
test-short:
	DOCKER_HOST=unix:///nonexistent JUDGE_DOCKER_HOST=unix:///nonexistent JUDGE_REQUIRE_DOCKER= JUDGE_REQUIRE_BROWSER= $(GO) test -short -count=1 -timeout 2m ./... bots

# The figures of BENCHMARKS.md.
bench: images
	JUDGE_REQUIRE_DOCKER=1 JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(GO) test -run '^$$' -bench RoundTrip -benchtime 5000x -count 3 ./sandbox/
	JUDGE_REQUIRE_DOCKER=1 JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(GO) test -run '^$$' -bench StartToFirstAnswer -benchtime 10x ./sandbox/
	JUDGE_REQUIRE_DOCKER=1 JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(GO) test -run '^$$' -bench Compile -benchtime 3x ./judge/build/
	JUDGE_REQUIRE_DOCKER=1 JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(GO) test -run '^$$' -bench Match -benchtime 20x -count 2 ./judge/games/
	JUDGE_REQUIRE_DOCKER=1 JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(GO) test -run '^$$' -bench PerMove -benchtime 5x ./judge/games/
	JUDGE_REQUIRE_DOCKER=1 JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(GO) test -run '^$$' -bench Throughput -benchtime 40x ./judge/daemon/
	$(GO) test -run '^$$' -bench Overhead -benchtime 2000x ./judge/queue/

# An organiser's game: On The Run's referee as a Python program against the built-in one, per
# exchange and per match start (BENCHMARKS.md).
bench-referee: images
	JUDGE_REQUIRE_DOCKER=1 JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(GO) test -run '^$$' -bench 'RefereeExchange|MatchStart' -benchtime 3x -count 2 -timeout 30m ./cmd/judge/

# The figures of the contestant's machine (BENCHMARKS.md): --local's exchange against a plain
# pipe, a one-move match with --local against the sandbox, --against against a fresh match.
bench-local: images local-tools
	$(GO) test -run '^$$' -bench Exchange -count 2 ./judge/local/
	JUDGE_REQUIRE_DOCKER=1 JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(GO) test -run '^$$' -bench 'OneMoveMatch|Against' -benchtime 5x -count 2 ./cmd/judge/

# The tournament figures of BENCHMARKS.md: one daemon against two.
bench-tournament: images
	judge/tournament/bench.sh

# How sure standings are, and the tests that decide (BENCHMARKS.md): simulated, no Docker.
bench-separation:
	$(GO) test -run '^$$' -bench 'Separate128|BradleyTerry128|SPRT' -benchtime 1x ./judge/rating/
	$(GO) test -run '^$$' -bench UntilSeparated -benchtime 1x -timeout 60m ./judge/tournament/

# One real field played until separated and by repeating the round robin (BENCHMARKS.md).
# The ladder's simulations (#53): the choice of opponents against the one before, at the same
# budget, trials' verdicts and leagues' promotions; BENCHMARKS.md quotes them. About 16 minutes.
bench-ladder:
	$(GO) test -run '^$$' -bench 'Leaderboard' ./judge/contest/ladder/
	$(GO) test -run '^$$' -bench 'LadderChoice|Trial|Leagues' -benchtime 1x -timeout 60m ./judge/contest/ladder/

bench-field: images judge
	judge/tournament/field.sh

# A round of bots that think, on the default settings and on those of before (BENCHMARKS.md).
bench-round: images
	judge/tournament/round.sh

# Back-to-back one-move matches through judge serve, timed by the client (BENCHMARKS.md).
bench-latency: images
	judge/daemon/latency.sh

# The portal: upload to compile result and to validation result on a real daemon (BENCHMARKS.md).
bench-portal: images
	$(GO) test -run '^$$' -bench BenchmarkUploadToVerdict -benchtime 1x -timeout 30m ./judge/portal/

# The integrity check (#55): the corpus's disguises against its unrelated pairs, 500 versions of
# about 500 lines by source and 10,000 replays by play, each on one core. About two minutes.
bench-similar:
	GOMAXPROCS=1 $(GO) test -run '^$$' -bench 'BenchmarkDisguises|BenchmarkSources|BenchmarkPlays' -benchtime 1x ./judge/similar/

# Matches watched live and drawn on (#54): what the live tee costs the daemon a line, with and
# without watchers, the delay from an exchange written to its step in Chromium, and what bots
# drawing 10 and 100 marks a move cost a match against none. About two minutes.
bench-live: images
	$(GO) test -run '^$$' -bench BenchmarkLiveTee -benchtime 20000x -count 3 ./judge/queue/
	$(GO) test -run '^$$' -bench BenchmarkLiveDelay -benchtime 3x ./judge/portal/
	JUDGE_REQUIRE_DOCKER=1 JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) $(GO) test -run '^$$' -bench BenchmarkMarks -benchtime 5x ./judge/games/

# A simulated season on the real judge: 15 minutes of ladder, rounds, restarts (BENCHMARKS.md;
# about 25 minutes in all).
season: images
	JUDGE_SEASON=$${JUDGE_SEASON:-15m} $(GO) test -run TestSeason -count 1 -v -timeout 90m ./judge/portal/

# The soak: JUDGE_SOAK mixed matches (5,000 by default; about 90 minutes here) through a judge
# serve of its own, with chaos bots; the judge's figures at the start and the end (BENCHMARKS.md).
soak: images
	JUDGE_REQUIRE_DOCKER=1 JUDGE_TEST_DATA_DIR=$(JUDGE_DATA_DIR) JUDGE_SOAK=$${JUDGE_SOAK:-5000} $(GO) test -run '^TestSoak$$' -count 1 -v -timeout 6h ./judge/daemon/

# The portal's load test: 50 contestants at once for two minutes (BENCHMARKS.md).
load-portal:
	JUDGE_PORTAL_LOAD=2m $(GO) test -run TestPortalLoad -count 1 -v -timeout 20m ./judge/portal/

# The daemon's own image (Dockerfile), from the judge's Debian base image: no registry.
daemon-image: images
	CGO_ENABLED=0 $(GO) build $(STAMP) -o $(JUDGE) ./cmd/judge
	docker build --build-arg BASE=$$(docker images judge/base --format '{{.Repository}}:{{.Tag}}' | head -n 1) -t judge:latest .
