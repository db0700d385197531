"""./course slides [NN...]: every lesson's deck of slides (docs/slides/NN_name.md), built and
checked at 1280x720 in headless Chromium by harness/slides/build_slides.py."""
import os
import subprocess
import sys

from . import setup
from .course import ROOT, build_dir, die


def chart_tool():
    """course-record-chart, which draws the decks' charts from the recorded runs."""
    return os.path.join(build_dir(), "bin", "course-record-chart")


def command(args):
    """The builder's command line for ./course slides ARGS."""
    return [sys.executable, os.path.join(ROOT, "harness", "slides", "build_slides.py"), "--root", ROOT,
            "--out", os.path.join(build_dir(), "slides"), "--draw", chart_tool(), *args]


def run(args):
    # pandoc is needed; Chromium (the check and the PDF) is nice to have.
    if not setup.have("pandoc"):
        setup.apt_install(["pandoc"], ["pandoc"])
    if not setup.have("pandoc"):
        die(2, "the slides need pandoc (Debian: apt-get install pandoc)")
    if not setup.browser():
        setup.apt_install(["chromium"], [])
    if not os.access(chart_tool(), os.X_OK):  # what draws the charts: built where the course is
        if os.path.isfile(os.path.join(build_dir(), "CMakeCache.txt")):
            subprocess.run(["cmake", "--build", build_dir(), "--target", "course-record-chart"],
                           stdout=subprocess.DEVNULL)
        else:
            setup.ensure()
    sys.stdout.flush()
    os.execv(sys.executable, command(args))
