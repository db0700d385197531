"""./course fuzz [SECONDS]: the image loader's libFuzzer target, built with clang, for SECONDS."""
import os
import subprocess

from . import setup
from .course import ROOT

PROBE = 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }\n'


def run(args):
    missing = [] if setup.have("clang++") else ["clang"]
    # libFuzzer's and the sanitizers' runtimes for clang: their own package since Debian 12.
    if not setup.have("clang++") or subprocess.run(
            ["clang++", "-x", "c++", "-", "-fsanitize=fuzzer,address", "-o", "/dev/null"], input=PROBE.encode(),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode != 0:
        missing.append("libclang-rt-14-dev")
    if missing:
        setup.apt_install(missing, missing)
    setup.install_packages()  # the fuzz build needs the same headers and stb as the course
    script = os.path.join(ROOT, "fuzz", "run.sh")
    os.execv(script, [script, *args])
