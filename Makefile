# Segue: `make demo` renders every effect from built-in screens; `make test` runs the whole test suite.
SWIFT ?= swift
RELEASE := $(SWIFT) build -c release --product segue
SEGUE := .build/release/segue

.PHONY: all deps build release demo strips example build-tested build-asan build-tsan test test-release test-slurm check-shaders bench bench-quick bench-deps dist test-dist clean \
	fuzz-build fuzz fuzz-smoke soak test-sanitizers test-asan test-tsan docs test-studio studio-screenshots image test-image

all: build

deps:
	@scripts/install-deps.sh build

build: deps
	$(SWIFT) build

release: deps
	$(RELEASE)

# Every effect, both directions, into ./segue-demo (see `segue demo --help`).
demo: release
	$(SEGUE) demo --out segue-demo

# docs/strips/<effect>.png: the frames at t = 0, 0.25, 0.5, 0.75 and 1 of every effect, forward, on the sample
# screens at 150x267 pixels, as docs/effects.md shows them (regenerate after changing an effect).
strips: release
	rm -rf .build/strips
	$(SEGUE) demo --scale 0.4 --fps 4 --backend cpu --quiet --out .build/strips
	mkdir -p docs/strips
	rm -f docs/strips/*.png
	for f in .build/strips/*-forward.png; do n=$$(basename $$f -forward.png); cp $$f docs/strips/$$n.png; done

# The SegueRender documentation (Sources/SegueRender/SegueRender.docc and the doc comments) as a DocC archive in
# .build/plugins/Swift-DocC/outputs/SegueRender.doccarchive, through swift-docc-plugin: about 45 s the first
# time (the plugin and the symbol graphs are built), 9 s after (2 shared cores). Every public symbol declared
# in the library must have an abstract (scripts/check-doc-coverage.py reads DocC's coverage report).
docs:
	$(SWIFT) package generate-documentation --target SegueRender --warnings-as-errors \
		--experimental-documentation-coverage --coverage-summary-level brief
	scripts/check-doc-coverage.py .build/plugins/Swift-DocC/outputs/SegueRender.doccarchive

# examples/library, a separate package that depends on Segue by version, as a program outside this repository
# does: this checkout's last commit is cloned into .build/tagged/segue and tagged with Segue's version, and the
# example resolves `from:` that version against it (uncommitted changes are not in it). It renders a frame to
# a PNG, frames to a directory, a frame in memory, an effect file, a storyboard from a string, and catches a
# missing input by its error case and a cancelled task's interruption; its PNG must equal the command line's.
VERSION := $(shell sed -n 's/^ *public static let version = "\([^"]*\)"$$/\1/p' Sources/SegueRender/Backends/SegueBuild.swift)
example: deps
	$(SWIFT) build $(TESTED) --product segue
	rm -rf .build/tagged .build/example examples/library/.build examples/library/Package.resolved
	git clone -q . .build/tagged/segue
	git -C .build/tagged/segue tag $(VERSION)
	cd examples/library && $(SWIFT) build
	examples/library/.build/debug/segue-library-example .build/example
	$(SEGUE_TESTED) render door --from sample:home --to sample:detail --progress 0.5 --backend cpu --quiet --out .build/example-cli.png
	cmp .build/example/door-half.png .build/example-cli.png && echo "example: the library's PNG equals segue render's"

# The whole suite (unit, golden, GLES-against-CPU, hostile-input, fault and command-line tests) against one
# optimised build, the code users run (-c release, with -enable-testing for the tests' @testable imports; the
# command-line tests run the release `segue` beside the test bundle), in its own build tree; then every shader
# through glslangValidator, no command-line flag in the library's strings, the rooms of docs/architecture.md
# (scripts/check-rooms.sh), and the studio type-checked as another package's code would be (Segue's public API
# only: scripts/check-studio-api.sh).
TESTED := -c release -Xswiftc -enable-testing --scratch-path .build-release
SEGUE_TESTED := .build-release/release/segue
build-tested: deps
	$(SWIFT) build $(TESTED) --build-tests

test: build-tested
	$(SWIFT) test $(TESTED) --skip-build
	scripts/check-shaders.sh
	scripts/check-library-words.sh
	scripts/check-rooms.sh
	scripts/check-studio-api.sh .build-release

# `segue studio` in a real browser: Debian's Chromium, headless, driven by Selenium from PyPI (installed with
# Chromium by scripts/install-deps.sh studio), against the tested release build (Tests/Studio/test_studio.py):
# the page loads without a console error; a frame at progress 0.5, and one with an option changed, are segue
# render's PNGs byte for byte; a saved edit reaches the page within 1 s and a broken one shows its problem at its
# JSON path; an upload is drawn and a 20000x20000 PNG refused; no token is 403; a path that reaches for a file
# (../, absolute, encoded, through a link) is 404; scrubbing shows at least 30 frames/s, measured by the page.
test-studio: deps
	$(SWIFT) build $(TESTED) --product segue
	scripts/test-studio.sh $(SEGUE_TESTED)

# docs/studio-{compare,problem,storyboard,editor,controls,curve}.png: the page's main states, as the browser tests leave them.
studio-screenshots: deps
	$(SWIFT) build $(TESTED) --product segue
	rm -rf .build/studio-shots
	SEGUE_STUDIO_SCREENSHOTS=.build/studio-shots scripts/test-studio.sh $(SEGUE_TESTED)
	cp .build/studio-shots/studio-compare.png .build/studio-shots/studio-problem.png .build/studio-shots/studio-storyboard.png .build/studio-shots/studio-editor.png \
		.build/studio-shots/studio-controls.png .build/studio-shots/studio-curve.png docs/

# A real single-node Slurm (installed if missing) renders a storyboard as a 4-task job array; the frames must
# equal a single-process run byte for byte; then as 4 chunks of an .mp4, joined by the last task, which must
# have the single run's frame count and duration and every frame's PSNR within 0.5 dB of it
# (scripts/test-slurm.sh; needs root or sudo, about 15 s).
test-slurm: deps
	$(SWIFT) build $(TESTED) --product segue
	scripts/test-slurm.sh $(SEGUE_TESTED)

# glslangValidator over Shaders/ (SwiftPM embeds those files into SegueGLES at build time).
check-shaders: deps
	scripts/check-shaders.sh

# The benchmark harness: Segue's backends stage by stage against pixman, ffmpeg xfade, a plain copy and, where
# chromium is installed (not by bench-deps), headless Chromium, at 1280x720 ... 7680x4320; writes bench/results/<host>-<date>.json, .md (the table) and .png/.svg (the chart).
HOST := $(shell hostname -s 2>/dev/null || echo host)
DATE := $(shell date +%Y-%m-%d)
RESULT := bench/results/$(HOST)-$(DATE)

bench-deps:
	@scripts/install-deps.sh bench

.build/bench/pixman_peer: bench/peers/pixman_peer.c | bench-deps
	@mkdir -p .build/bench
	cc -O2 -o $@ $< $$(pkg-config --cflags --libs pixman-1) -lpthread -lm

bench: bench-deps .build/bench/pixman_peer
	$(SWIFT) build -c release --product segue-bench
	$(SWIFT) build -c release --product segue
	SEGUE_SWIFT_VERSION="$$($(SWIFT) --version 2>&1 | head -1)" .build/release/segue-bench --out $(RESULT).json
	/usr/bin/python3 bench/report.py $(RESULT).json

# A smoke run under a minute (one size, a few frames); CI runs it without asserting times.
# From the self-contained archive (make dist), which holds the same release binaries as segue-bench and segue,
# so CI builds the release product once for test-dist and this.
bench-quick: bench-deps .build/bench/pixman_peer dist
	rm -rf .build/bench/dist && mkdir -p .build/bench/dist
	tar -C .build/bench/dist -xzf dist/segue-$(VERSION)-linux-$$(uname -m).tar.gz
	SEGUE_SWIFT_VERSION="$$($(SWIFT) --version 2>&1 | head -1)" .build/bench/dist/segue-$(VERSION)-linux-$$(uname -m)/bin/segue-bench --quick \
		--segue .build/bench/dist/segue-$(VERSION)-linux-$$(uname -m)/bin/segue --out .build/bench/quick.json
	/usr/bin/python3 bench/report.py .build/bench/quick.json

# The bad-input, limit, fault, output-directory and effect-file suites alone, from the build `make test` runs
# (which runs them with the rest): a quicker check after changing one of those paths.
RELEASE_SUITES := DoctorCommandTests|HostileValues|ShadowTests|MissingGLESLibraryTests|HostileInputTests|LimitTests|FaultTests|ClipFaultTests|OutputDirectoryTests|EffectFileCommandTests|FastPathTests|OutputPathCommandTests|FFmpegArgumentsCommandTests|MessageCommandTests|VideoEncoderFaultTests|ChunkCommandTests|EdgeCommandTests|EdgeVideoCommandTests|SchedulerArrayCommandTests|HostileAPITests|VideoEdgeTests|MessageWordsTests|CalibrationTests
test-release: deps
	$(SWIFT) build $(TESTED) --build-tests
	$(SWIFT) test $(TESTED) --skip-build --filter '$(RELEASE_SUITES)'

# The in-process suites under AddressSanitizer, then ThreadSanitizer, each in its own build tree: optimised
# builds (-c release, with -enable-testing), so the sanitizers check the code that ships. The command-line
# suites (SegueCLITests), which spawn the `segue` binary and wait on it, run once, in `make test`, against the
# release build; here each sanitizer sees the library, backends and pipeline in the test process itself.
# Leak checking is off: the Swift runtime, Foundation and Mesa leave allocations at exit that LeakSanitizer
# reports; growth is measured by `make soak` instead.
# SEGUE_SANITIZED: tests that draw large frames to check a fast path at a real size (FastPathTests at
# 1080p, which `make test` runs) draw them small, as a debug build does; and a measurement of the instrumented
# CPU compositor against uninstrumented Mesa is not held to favour the CPU (CalibrationTests).
SANITIZED := -c release -Xswiftc -enable-testing -Xswiftc -DSEGUE_SANITIZED
IN_PROCESS := --skip 'SegueCLITests\.'
# The two builds are prerequisites, so `make -j2 test-sanitizers` (CI) makes them side by side: a release
# build keeps one core busy for much of its time (each module is one whole-module compile).
build-asan: deps
	$(SWIFT) build $(SANITIZED) --build-tests --sanitize=address --scratch-path .build-asan

build-tsan: deps
	$(SWIFT) build $(SANITIZED) --build-tests --sanitize=thread --scratch-path .build-tsan

# Each run starts when its own build is done (`make -j2`: ASan's run beside the end of TSan's build and the
# start of its run).
test-asan: build-asan
	ASAN_OPTIONS=detect_leaks=0 $(SWIFT) test -c release --skip-build --sanitize=address --scratch-path .build-asan $(IN_PROCESS)

test-tsan: build-tsan
	$(SWIFT) test -c release --skip-build --sanitize=thread --scratch-path .build-tsan $(IN_PROCESS)

test-sanitizers: test-asan test-tsan

# 10,000 frames at 1920x1080 on the CPU then on GLES in one process, every effect in turn: resident memory
# after frame 100 must grow less than 5% by the end, and GL object counts stay flat (Tools/Soak; ~5 min).
SOAK_FRAMES ?= 10000
soak: deps
	$(SWIFT) build -c release --product segue-soak
	.build/release/segue-soak --frames $(SOAK_FRAMES)

# libFuzzer on the image decoder, the storyboard parser and the effect file reader (Fuzz/, its own package: the fuzzer supplies main).
# `make fuzz` runs each target FUZZ_SECONDS (default 600) one after the other, `make fuzz-smoke` 30 s each.
# Seeds are made by Fuzz/seeds.sh; the growing corpora and any crash-* inputs stay in .build/fuzz/.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS := FuzzImageDecoder FuzzStoryboard FuzzEffectFile
FUZZ_FLAGS := -c release -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library

fuzz-build: deps
	cd Fuzz && $(SWIFT) build $(FUZZ_FLAGS)
	rm -rf .build/fuzz/seeds && Fuzz/seeds.sh .build/fuzz/seeds

fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do scripts/fuzz.sh $$t $(FUZZ_SECONDS) || exit 1; done

fuzz-smoke: fuzz-build
	@for t in $(FUZZ_TARGETS); do scripts/fuzz.sh $$t 30 || exit 1; done

# A build that runs without the Swift toolchain: dist/segue-VERSION-linux-x86_64.tar.gz (scripts/dist.sh says
# what it holds), then unpacked into an empty directory with the toolchain and the build tree hidden, where
# segue doctor and segue demo must run (scripts/test-dist.sh; needs root for the mount namespace).
dist: deps
	scripts/dist.sh dist

test-dist: dist
	scripts/test-dist.sh dist

# The container image (Containerfile) from the archive, with podman or docker: segue:VERSION and segue:latest
# (CPU), segue:VERSION-gpu and segue:gpu (the NVIDIA variant); scripts/image.sh says each one's size. BASE= another
# base image (default Debian 12 slim from Docker Hub; IMAGE_BASE=local makes one here with debootstrap).
ARCHIVE = dist/segue-$(VERSION)-linux-$(shell uname -m).tar.gz
image: dist
	@if [ "$(IMAGE_BASE)" = local ]; then scripts/image-base.sh localhost/segue-base:bookworm && \
	  BASE=localhost/segue-base:bookworm scripts/image.sh $(ARCHIVE); else scripts/image.sh $(ARCHIVE); fi

# The image built with Podman on a base made here with debootstrap (no registry is needed), then run for real:
# doctor and demo read-only as the non-root user, an unwritable /out, a storyboard's .mp4 as 3 chunks in 3
# containers joined by a fourth and one chunk killed and resumed, each against one render outside containers
# (scripts/test-image.sh; needs root or sudo; about 5 minutes, 3 of them for the base the first time).
test-image: dist
	@scripts/install-deps.sh image
	scripts/test-image.sh $(ARCHIVE)

clean:
	rm -rf .build .build-release .build-asan .build-tsan segue-demo Fuzz/.build dist
