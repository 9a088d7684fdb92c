# Conveniences; every target is one command you could type yourself.
SWIFT ?= swift

.PHONY: bootstrap build test test-video test-browser video release demo bench fuzz goldens clean

bootstrap:
	scripts/bootstrap

build: bootstrap
	$(SWIFT) build

# The suites that run real processes in real time (servers, players, a private D-Bus with playerctl,
# a tmux server) and those that time work against a larger input (…ScalingTests) run on their own
# after the rest, one test at a time, so that they compete with nothing for the cores (side by side,
# the demo's real processes made the tmux and the scale-out suites miss their timing windows).
SOLO_SUITES = GroupAcrossProcessesTests|DemoCommandTests|ScaleOutAcrossProcessesTests|MPRISServiceTests|PlayCommandMPRISTests|WatchCommandTmuxTests|ScalingTests
test: bootstrap
	$(SWIFT) test --skip '$(SOLO_SUITES)'
	$(SWIFT) test --skip-build --no-parallel --filter '$(SOLO_SUITES)'

# Real video through GStreamer: the nested Video package, with the Debian packages it needs. Not a
# part of `test`, so that the root package builds and tests without GStreamer. The suites that play
# in real time (headless, and into a window on a private Xvfb) run one at a time after the pure
# ones: side by side on two shared cores they missed their timing windows.
VIDEO_REALTIME_SUITES = GStreamerPipelineTests|GStreamerPipelineHLSTests|InterstitialSwitcherTests|PlayerWindowTests|InterludeVideoTests|GroupVideoTests
test-video:
	scripts/bootstrap --video
	$(SWIFT) test --package-path Video --skip '$(VIDEO_REALTIME_SUITES)'
	$(SWIFT) test --package-path Video --skip-build --no-parallel --filter '$(VIDEO_REALTIME_SUITES)'

# A real browser in a group: headless Chromium (Debian's, native HLS) on an invitation link, next
# to `interlude join` participants, for two minutes (Tests/Browser/run.py: skew, ads, a viewer's
# refused seek, a closed tab lost). Needs what `scripts/bootstrap --browser` installs.
test-browser:
	scripts/bootstrap --browser
	$(SWIFT) build --product interlude
	.build/browser-venv/bin/python Tests/Browser/run.py --interlude "$$($(SWIFT) build --show-bin-path)/interlude"

# interlude-video (the player window, real pictures and sound), which `interlude watch --video` runs.
video:
	scripts/bootstrap --video
	$(SWIFT) build --package-path Video -c release --product interlude-video

release: bootstrap
	$(SWIFT) build -c release

# The main job, seen: three friends watch together with different ads, live and on demand, as real
# processes on this machine, beside the simulator's figures for the same stories (interlude demo).
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
	rm -rf .build Benchmarks/.build Fuzz/.build Video/.build
