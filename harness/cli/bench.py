"""./course bench [options]: the performance ladder of every operation (bench/course_bench.py)."""
import os
import shutil
import subprocess

from . import setup
from .course import ROOT, die


def python_with_opencv():
    """The Python that runs the driver: one that has OpenCV (a peer it compares with), if any."""
    for candidate in (os.environ.get("COURSE_PYTHON"), "/usr/bin/python3", "python3"):
        found = candidate and shutil.which(candidate)
        if found and subprocess.run([found, "-c", "import cv2"], stdout=subprocess.DEVNULL,
                                    stderr=subprocess.DEVNULL).returncode == 0:
            return found
    return shutil.which("python3")


def run(args):
    setup.ensure()
    python = python_with_opencv()
    if not python:
        die(2, "the benchmark needs python3 (Debian: python3, and python3-opencv for the peers)")
    os.chdir(ROOT)
    os.execv(python, [python, os.path.join(ROOT, "bench", "course_bench.py"), *args])
