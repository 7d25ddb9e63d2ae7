# Lineage — the two commands a newcomer needs are `make run` and `make test`.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := build

GO       ?= go
NPM      ?= npm
DATA     ?= data
ADDR     ?= :8080
GOFLAGS  ?=
export GOFLAGS

WEB_DEPS := web/node_modules/.installed
GO_SRC   := $(shell find cmd internal -name '*.go' -not -name '*_test.go' 2>/dev/null) $(shell find internal -path '*/migrations/*' -name '*.sql' 2>/dev/null) go.mod go.sum

.PHONY: build run test test-go test-web test-e2e fuzz bench bench-cluster bench-cluster-search lighthouse bench-search bench-iiif bench-gedcom bench-newsletter bench-bookings soak bench-signin deps clean fmt vet

## deps: install the web app's npm packages (Node 24 comes with them)
# The app never runs on the machine's Node: react-router needs Node >= 22.22, so the
# lock pins the `node` package, whose Node 24 serves the pages (the SSR workers start
# web/node_modules/node/bin/node) and runs every `npm run` script (npm puts
# node_modules/.bin first on PATH). npm checks each package's `engines` against the
# Node that runs npm itself, so the install runs npm on that same pinned Node, fetched
# by `npm exec` (the second fetch of it, inside `npm ci`, comes from npm's cache): the
# engines are then checked against the Node the packages will run on.
WEB_NODE = $(shell sed -n '/"node_modules\/node": {/{n;s/.*"version": "\(.*\)",/\1/p;}' web/package-lock.json)
deps: $(WEB_DEPS)
# A web/node_modules that is a link to another checkout's (a git worktree sharing one
# install) is never reinstalled through: `npm ci` would empty the other checkout's
# folder. It is used as it is when it was installed from the same package-lock.json.
$(WEB_DEPS): web/package.json web/package-lock.json
	@if [ -L web/node_modules ]; then \
	  other=$$(readlink -f web/node_modules)/..; \
	  if cmp -s web/package-lock.json "$$other/package-lock.json"; then touch $@; exit 0; fi; \
	  echo "web/node_modules links to $$other, installed from another package-lock.json: remove the link and run make deps" >&2; exit 1; \
	fi; \
	cd web && $(NPM) exec --yes --package=node@$(WEB_NODE) -- $(NPM) ci --no-audit --no-fund && touch node_modules/.installed

## build: bin/lineage and web/build/, and the cluster harness's bin/lb and bin/cluster
## (tools/lb, tools/cluster: the several-instances tests and bench-cluster use them)
build: bin/lineage bin/lb bin/cluster web/build/server/index.js

bin/lineage: $(GO_SRC)
	$(GO) build -o bin/lineage ./cmd/lineage

bin/lb: $(wildcard tools/lb/*.go) go.mod
	$(GO) build -o bin/lb ./tools/lb

bin/cluster: $(wildcard tools/cluster/*.go) $(wildcard internal/store/storetest/*.go) $(GO_SRC)
	$(GO) build -o bin/cluster ./tools/cluster

web/build/server/index.js: $(WEB_DEPS) $(shell find web/app -type f 2>/dev/null) web/react-router.config.ts web/vite.config.ts web/server.mjs
	cd web && $(NPM) run build

## run: build everything and serve http://localhost:8080 with the demo content
run: build
	bin/lineage serve --addr $(ADDR) --data $(DATA) --demo

## test: every test — Go on SQLite and PostgreSQL, web units, browser end to end
test: build
	@scripts/test-all

test-go:
	@scripts/test-all go

test-web: $(WEB_DEPS)
	@scripts/test-all web

test-e2e: build
	@scripts/test-all e2e

## fuzz: every Go fuzz target for FUZZ_TIME each (default 60s; `make test` runs them 1s
## each), keeping the corpus found in Go's cache; a failing input is written under the
## package's testdata/fuzz/ to be committed
FUZZ_TIME ?= 60s
fuzz:
	FUZZTIME=$(FUZZ_TIME) FUZZ_CACHE=go scripts/fuzz

## bench: content search latency and page throughput, written to docs/benchmarks.md
bench: build
	scripts/bench

## bench-cluster: page and tile throughput of one instance against two behind tools/lb,
## both on one PostgreSQL, interleaved (BENCH_SECONDS per run, BENCH_ROUNDS rounds);
## written to docs/benchmarks.md under "Several instances"
bench-cluster: build
	scripts/bench-cluster

## bench-cluster-search: search API latency (p50/p95/p99) at BENCH_RECORDS records
## (default ten million) on PostgreSQL, one instance against two behind tools/lb,
## interleaved; written to docs/benchmarks.md
bench-cluster-search: build
	scripts/bench-cluster-search

## lighthouse: Lighthouse 12 (pinned in web/) with Debian's chromium on home, a news item,
## an event, research results and a person page, mobile and desktop, against the demo
## server; the table (scores, CLS, JS bytes, load average) goes to docs/benchmarks.md
## under "Lighthouse". A benchmark (scores move with the machine's load), not a test.
LIGHTHOUSE_RUNS ?= 1
lighthouse: build
	cd web && node bench/lighthouse.mjs --runs $(LIGHTHOUSE_RUNS) --write ../docs/benchmarks.md

## bench-search: research search latency (p50/p95/p99) and import throughput on SQLite and
## PostgreSQL with 1 000 000 generated records (BENCH_RECORDS=10000000 for the 10-million
## target), written to docs/benchmarks-search.md
bench-search:
	scripts/bench-search

## bench-iiif: IIIF image server — pre-cut tiles and on-demand derivatives per second, and
## import-to-first-tile time of a new 100-megapixel scan, written to docs/benchmarks-iiif.md
bench-iiif: build
	scripts/bench-iiif

## soak: the load-and-fault test — 64 connections of pages, search, sign-ins and tiles for
## 5 minutes (SOAK_SECONDS) while imports run, the SSR child is killed and frozen and the
## content API is cut; fails on a 5xx outside the fault windows or a lost import; the
## figures go to docs/benchmarks.md
soak: build
	scripts/soak

## bench-signin: new sessions (p50/p99/max) while a 10-minute import writes into the serving
## store, against reference phases before and after, on SQLite then PostgreSQL; fails when
## a session takes over 100 ms during the import; written to docs/benchmarks.md
bench-signin: build
	scripts/bench-signin

## bench-bookings: event bookings per second (and p99) against one popular event with 64
## concurrent clients, interleaved with a reference request on the same server, with the
## load average, on SQLite and on a throwaway PostgreSQL cluster; written to
## docs/benchmarks.md under "Event bookings (SQLite)" and "(PostgreSQL)" (tools/bookbench).
bench-bookings:
	go build -o $${TMPDIR:-/tmp}/lineage-bookbench ./cmd/lineage
	go run ./tools/bookbench -lineage $${TMPDIR:-/tmp}/lineage-bookbench -write docs/benchmarks.md
	go run ./tools/bookbench -lineage $${TMPDIR:-/tmp}/lineage-bookbench -pg -write docs/benchmarks.md

## bench-gedcom: GEDCOM parse MB/s, and import time and peak memory of a generated
## 200 000-person file (about 50 MB) into SQLite, written to docs/benchmarks-gedcom.md
bench-gedcom:
	scripts/bench-gedcom

## bench-newsletter: an edition's send rate to 10 000 subscribers through the in-process
## SMTP server (against the outbox alone), and alert matching of 100 000 imported records
## against 10 000 alerts (against the same searches run directly), on SQLite; Markdown
## rows for docs/benchmarks.md (NEWSBENCH_* sizes: see cmd/lineage/newsletter_bench_test.go)
bench-newsletter:
	$(GO) run ./tools/newsbench
	$(GO) test -run '^$$' -bench '^BenchmarkAlertMatching$$' -benchtime 1x -timeout 20m ./cmd/lineage

vet:
	$(GO) vet ./...

fmt:
	gofmt -w cmd internal

clean:
	rm -rf bin web/build
