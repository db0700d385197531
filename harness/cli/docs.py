"""./course docs [--check]: the course site (Doxygen) into build/docs/html, and with --check every
page opened in headless Chromium."""
import os
import subprocess

from . import setup
from .course import ROOT, build_dir, die, say


def run(args):
    if args[:1] == ["--check"]:
        return check()
    if args:
        die(2, f"docs takes only --check (not '{args[0]}')")
    return make_site()


def make_site():
    setup.ensure()
    out = build_dir()
    with open(os.path.join(out, "CMakeCache.txt"), errors="replace") as f:
        found = any(line.startswith("DOXYGEN_EXECUTABLE:FILEPATH=/") for line in f)
    if not found:  # Doxygen installed since the build was configured
        subprocess.run(["cmake", "-S", ROOT, "-B", out], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if subprocess.run(["cmake", "--build", out, "--target", "docs"]).returncode != 0:
        die(2, "the documentation did not build (is doxygen installed?)")
    say(f"The course site is in {out}/docs/html/index.html")
    return 0


def check():
    make_site()
    if not setup.browser():
        setup.apt_install(["chromium"], ["chromium"])
    status = subprocess.run([os.path.join(ROOT, "harness", "site", "check.sh"), os.path.join(build_dir(), "docs", "html"),
                             os.path.join(ROOT, "docs"), os.path.join(ROOT, "out", "docs")]).returncode
    if status == 77:
        die(2, "the check needs Chromium: sudo apt-get install chromium")
    return status
