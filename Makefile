# The course's front door: a thin layer over CMake, CTest and gnuplot.
#
#   make run     install what is missing, build, run every step in quick mode, plot
#   make test    install what is missing, build, build the docs, run all tests
#   make help    everything else
#
# Variables: BUILD=build (the build folder), CUDA_ARCH=90 (GPU architecture; default:
# the GPU found when configuring, else 90), STEP=1 (make run/bench only that step),
# RESULTS=results/local (the folder make run/bench write to and make plots reads),
# EXERCISES=a,b (make student blanks only those exercises, make grade grades only
# those), NAME=naive_product (make exercise), STUDENTS="copy1 copy2" (or a folder of
# copies) or STUDENT=one copy, and SOLUTIONS=an earlier solutions.dat (make grade).

BUILD     ?= build
RESULTS   ?= results/local
STEPS     := $(sort $(wildcard step-[0-9]*))
ifdef STEP
STEPS     := step-$(STEP)
endif

# Configure options: the GPU architecture when given; nvcc from the default CUDA
# location when it is not on the PATH; Catch2/CLI11 from .deps when present.
CMAKE_ARGS := -G Ninja
ifdef CUDA_ARCH
CMAKE_ARGS += -DCMAKE_CUDA_ARCHITECTURES=$(CUDA_ARCH)
endif
ifeq ($(shell command -v nvcc),)
ifneq ($(wildcard /usr/local/cuda/bin/nvcc),)
CMAKE_ARGS += -DCMAKE_CUDA_COMPILER=/usr/local/cuda/bin/nvcc
endif
endif
ifneq ($(wildcard .deps/usr),)
CMAKE_ARGS += -DCMAKE_PREFIX_PATH=$(CURDIR)/.deps/usr
endif

.PHONY: all build deps configure run test bench plots docs student exercise grade clean help

all: build

deps:
	@tools/install-deps

# Configure once; CMake reconfigures itself when a CMakeLists changes. The test is for
# the build file, not the cache: a configure that failed half-way (a package not yet
# installed) leaves CMakeCache.txt without build.ninja, and `cmake --build` would then
# stop at "loading 'build.ninja'" instead of configuring again. An explicit CUDA_ARCH
# is passed every time, so that `make CUDA_ARCH=80` takes effect.
configure:
	@if [ ! -f $(BUILD)/build.ninja ] || [ -n "$(CUDA_ARCH)" ]; then \
	  cmake -S . -B $(BUILD) $(CMAKE_ARGS); fi

build: configure
	cmake --build $(BUILD)

run: deps build
	@set -e; for step in $(STEPS); do \
	  echo; echo "==== $$step --quick"; \
	  $(BUILD)/$$step/$$step --quick --out $(RESULTS); \
	done
	@$(MAKE) --no-print-directory plots RESULTS=$(RESULTS)

test: deps build docs
	cd $(BUILD) && ctest --output-on-failure

bench: build
	@set -e; for step in $(STEPS); do \
	  echo; echo "==== $$step (full sweep)"; \
	  $(BUILD)/$$step/$$step --out $(RESULTS); \
	done
	@$(MAKE) --no-print-directory plots RESULTS=$(RESULTS)

# Every step's plot.gp over the results folder, for each step that has tables there.
# A script draws what the tables hold and says in one line what it left out (a run
# without a GPU has no GPU numbers); a gnuplot error stops make.
plots:
	@for step in $(STEPS); do \
	  dir=$(RESULTS)/$$step; \
	  if ls $$dir/*.dat >/dev/null 2>&1; then \
	    gnuplot -e "dir='$$dir'" $$step/plot.gp || exit 1; \
	    echo "plots: $$dir/$${step}_*.png, .svg"; \
	  fi; \
	done

docs: configure
	cmake --build $(BUILD) --target docs
	@echo "docs: $(BUILD)/docs/html/index.html"

# The student edition: the course with every exercise's code replaced by a stub, in
# $(BUILD)/student/lab-course/ and $(BUILD)/student/lab-course-student.tar.gz.
# EXERCISES=name,name blanks only those (`ctest -V -R docs/exercises` lists them).
# A refusal (a broken marker, an unknown name) is one line: the build tool's own
# report of the failed command, kilobytes long, stays in $(BUILD)/student.log.
student: configure
	@LAB_EXERCISES="$(EXERCISES)" cmake --build $(BUILD) --target student > $(BUILD)/student.log 2>&1 && \
	  grep -E '^-- student edition' $(BUILD)/student.log || \
	  { grep -E '^lab_literate: ' $(BUILD)/student.log || tail -20 $(BUILD)/student.log; exit 1; }

# Feedback on one exercise, in either edition: its tests, a short timing run beside the
# course's solution and the vendor, one PASS/FAIL line (tools/exercise says more);
# PROFILE=1 adds Nsight Compute's view of the exercise's kernel.
exercise: configure
	@LAB_CMAKE_ARGS="$(CMAKE_ARGS)" tools/exercise --build $(BUILD) $(if $(PROFILE),--profile) $(NAME)

# Grading a class: each copy's exercises laid into a fresh copy of the course and
# checked and timed there, one table and one plot for the class in a dated folder of
# $(RESULTS)/grade (tools/grade says more). STUDENTS="a b c" (or a folder of copies),
# or STUDENT=one.
grade: configure
	@LAB_CMAKE_ARGS="$(CMAKE_ARGS)" tools/grade --build $(BUILD) --out $(RESULTS)/grade \
	  $(if $(EXERCISES),--exercises $(EXERCISES)) $(if $(SOLUTIONS),--solutions $(SOLUTIONS)) $(STUDENT) $(STUDENTS)

clean:
	rm -rf $(BUILD)

help:
	@echo "make            build everything (folder $(BUILD))"
	@echo "make run        install missing packages, build, run every step in quick mode, plot"
	@echo "make test       install missing packages, build, build the docs, run all tests"
	@echo "make bench      every step's full sweep into $(RESULTS), then the plots"
	@echo "make plots      draw the plots of $(RESULTS) (PNG and SVG next to the tables)"
	@echo "make docs       the Doxygen site: $(BUILD)/docs/html/index.html"
	@echo "make student    the student edition: $(BUILD)/student/lab-course-student.tar.gz"
	@echo "                (EXERCISES=name,name blanks only those exercises)"
	@echo "make exercise NAME=naive_product"
	@echo "                one exercise: its tests and a timing beside the solution and the vendor"
	@echo "make grade STUDENTS=\"copy1 copy2\"  grade a class (or STUDENT=one copy, or a folder of copies)"
	@echo "                graded on the course's ground: $(RESULTS)/grade/latest/grade.dat and a plot"
	@echo "                (EXERCISES=name,name only those; SOLUTIONS=solutions.dat of an earlier grading)"
	@echo "make clean      remove the build folder"
	@echo "variables       STEP=1 (one step)  CUDA_ARCH=80 (GPU architecture)"
	@echo "                RESULTS=results/<gpu> (plot the committed reference results)"
	@echo "                BUILD=build-debug (another build folder)"
