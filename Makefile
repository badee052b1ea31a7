# Segue: `make demo` renders every effect from built-in screens; `make test` runs the whole test suite.
SWIFT ?= swift
RELEASE := $(SWIFT) build -c release --product segue
SEGUE := .build/release/segue

.PHONY: all deps build release demo test test-slurm check-shaders shaders bench bench-quick clean

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

# Unit, golden, GLES-against-CPU and command-line tests, then every shader through glslangValidator.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build
	@if [ -x Shaders/check.sh ]; then Shaders/check.sh; fi

# A real single-node Slurm (installed if missing) renders a storyboard as a 4-task job array; the frames must
# equal a single-process run byte for byte (scripts/test-slurm.sh; needs root or sudo, about 10 s).
test-slurm: deps
	$(SWIFT) build --product segue
	scripts/test-slurm.sh .build/debug/segue

# Regenerates Sources/SegueGLES/ShaderSources.swift from Shaders/ (a test checks they agree).
shaders:
	Shaders/generate.sh

check-shaders: deps
	Shaders/check.sh

clean:
	rm -rf .build segue-demo
