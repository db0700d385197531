"""./course test [--sanitize] [ctest options]: builds and runs the test suite with ctest."""
import os
import subprocess

from . import setup
from .course import ROOT, build_dir, die, jobs, lines_around, print_err


def run(args):
    if args[:1] == ["--sanitize"]:
        # Host code under AddressSanitizer + UndefinedBehaviorSanitizer, in build-sanitize/. The test
        # preset sets the sanitizers' options and the suppressions for the OpenCL runtime's own
        # leaks (tests/reliability/sanitizers/), each commented there.
        setup.install_packages()
        os.chdir(ROOT)
        if subprocess.run(["cmake", "--preset", "sanitize"], stdout=subprocess.DEVNULL).returncode != 0:
            die(2, "configuring build-sanitize/ failed")
        log_path = os.path.join(ROOT, "build-sanitize", "build.log")
        with open(log_path, "w") as log:
            built = subprocess.run(["cmake", "--build", "--preset", "sanitize", f"-j{jobs()}"], stdout=log,
                                   stderr=subprocess.STDOUT).returncode == 0
        if not built:
            print_err(lines_around(log_path, "error", 2, 6, 60))
            die(2, "the sanitizer build failed")
        return subprocess.run(["ctest", "--preset", "sanitize", *args[1:]],
                              env=dict(os.environ, COURSE_CHANGE_SEARCH="0")).returncode
    setup.ensure()
    os.chdir(build_dir())
    # A failing check's search for one small change takes seconds: the tests that want it ask
    # for it (tests/check_mistakes.sh); tests/CMakeLists.txt turns it off for the others too.
    os.environ["COURSE_CHANGE_SEARCH"] = "0"
    # Every shipped kernel under Oclgrind (about 10 minutes with -j2 on two cores) is its own
    # run, which CI makes after this one: ./course test -L oclgrind-kernels.
    chosen = any(a.startswith("-L") or a.startswith("--label-regex") for a in args)
    skip = [] if chosen else ["-LE", "oclgrind-kernels"]
    return subprocess.run(["ctest", "--output-on-failure", f"-j{jobs()}", *skip, *args]).returncode
