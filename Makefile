# Conveniences; every target is one command you could type yourself.
SWIFT ?= swift

.PHONY: bootstrap build test release demo bench fuzz goldens clean

bootstrap:
	scripts/bootstrap

build: bootstrap
	$(SWIFT) build

# The cross-process suite runs real servers and players in real time: it runs on its own after the
# rest, so that its processes and the timing-sensitive in-process tests do not compete for the cores.
test: bootstrap
	$(SWIFT) test --skip GroupAcrossProcessesTests
	$(SWIFT) test --skip-build --filter GroupAcrossProcessesTests

release: bootstrap
	$(SWIFT) build -c release

# The main job for now: inspect, validate and re-format the bundled example playlists.
demo: bootstrap
	scripts/demo

bench:
	scripts/bootstrap --bench
	Benchmarks/run-parse.sh

fuzz:
	Fuzz/run.sh 600 parser
	Fuzz/run.sh 600 documents

goldens: bootstrap
	UPDATE_GOLDENS=1 $(SWIFT) test

clean:
	rm -rf .build Benchmarks/.build Fuzz/.build
