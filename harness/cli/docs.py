"""./course docs [--check] [--runs DIR]: the course site (Doxygen) into build/docs/html, its pages'
measurements filled in from the recorded runs (data/runs, or DIR), and with --check every page
opened in headless Chromium."""
import os
import subprocess

from . import setup
from .course import ROOT, absolute_path, build_dir, die, say


def run(args):
    check_too, i = False, 0
    while i < len(args):
        if args[i] == "--check":
            check_too = True
        elif args[i] == "--runs":
            folder = absolute_path(args[i + 1]) if i + 1 < len(args) else ""
            if not os.path.isdir(folder):
                die(2, f"docs --runs needs a folder of recorded runs (not '{args[i + 1] if folder else ''}')")
            os.environ["COURSE_RUNS"] = folder  # read by the pages' pre-pass, harness/site/expand_runs.py
            i += 1
        else:
            die(2, f"docs takes only --check and --runs DIR (not '{args[i]}')")
        i += 1
    return check() if check_too else make_site()


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
                             os.path.join(build_dir(), "docs", "source", "docs"),
                             os.path.join(ROOT, "out", "docs")]).returncode
    if status == 77:
        die(2, "the check needs Chromium: sudo apt-get install chromium")
    return status
