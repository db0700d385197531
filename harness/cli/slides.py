"""./course slides [NN...]: every lesson's slides from its page (pandoc's dzslides), each slide
checked at 1280x720 in headless Chromium."""
import os
import re
import subprocess

from . import setup
from .course import ROOT, build_dir, die, lesson as find_lesson, lessons, say, shown


def count_slides(markdown):
    return sum(1 for line in markdown.splitlines() if line.startswith("## "))


def check_in_browser(browser, page):
    """(slides, problems) that the check page reports in BROWSER; slides None when it did not run."""
    sandbox = ["--no-sandbox"] if os.geteuid() == 0 else []  # Chromium refuses root with its sandbox
    dom = subprocess.run([browser, "--headless", *sandbox, "--disable-gpu", "--window-size=1280,720",
                          "--virtual-time-budget=5000", "--allow-file-access-from-files", "--dump-dom",
                          f"file://{page}"], capture_output=True, text=True, errors="replace").stdout
    report = re.search(r'<pre id="slide-check">(.*?)</pre>', dom, re.S)
    text = report.group(1) if report else ""
    slides = re.search(r"SLIDES ([0-9]+)", text)
    problems = ["    " + line.split("OVERFLOW ", 1)[1] for line in text.splitlines() if "OVERFLOW " in line]
    return (int(slides.group(1)) if slides else None), problems


def run(args):
    pages = []
    for arg in args:
        if arg.startswith("-"):
            die(2, f"slides takes lesson numbers only (not '{arg}')")
        pages.append(find_lesson(arg))
    pages = pages or lessons()
    # pandoc is needed; Chromium (the overflow check and the PDF) is nice to have.
    if not setup.have("pandoc"):
        setup.apt_install(["pandoc"], ["pandoc"])
    if not setup.have("pandoc"):
        die(2, "the slides need pandoc (Debian: apt-get install pandoc)")
    if not setup.browser():
        setup.apt_install(["chromium"], [])
    browser = setup.browser()
    out = os.path.join(build_dir(), "slides")
    try:
        os.makedirs(os.path.join(out, "check"), exist_ok=True)
    except OSError:
        die(2, f"cannot write {out}")
    # pandoc 3 names --self-contained --embed-resources (and warns about the old name).
    helped = subprocess.run(["pandoc", "--help"], capture_output=True, text=True).stdout
    embed = ["--embed-resources", "--standalone"] if "--embed-resources" in helped else ["--self-contained"]
    failed = False
    for lesson in pages:
        page = os.path.join(ROOT, "docs", f"{lesson.folder}.md")
        if not os.path.isfile(page):
            die(2, f"lesson {lesson.number} has no page docs/{lesson.folder}.md")
        markdown = os.path.join(out, f"{lesson.folder}.md")
        with open(markdown, "w") as f:
            subprocess.run(["awk", "-f", os.path.join(ROOT, "harness", "slides", "page_to_slides.awk"), page], stdout=f)
        with open(markdown) as f:
            text = f.read()
        title = re.sub(r"^## ", "", text.splitlines()[0]) if text else lesson.folder
        common = ["pandoc", "-f", "markdown-smart", "-t", "dzslides", "--slide-level=2", *embed,
                  f"--resource-path={os.path.join(ROOT, 'docs')}", "-H", os.path.join(ROOT, "harness", "slides",
                                                                                      "style.html"),
                  "--metadata", f"pagetitle={title}"]
        html, checked = os.path.join(out, f"{lesson.folder}.html"), os.path.join(out, "check", f"{lesson.folder}.html")
        log_path = os.path.join(out, f"{lesson.folder}.log")
        with open(log_path, "w") as log:
            made = subprocess.run(common + ["-o", html + ".tmp", markdown], stderr=log).returncode == 0 and \
                subprocess.run(common + ["-A", os.path.join(ROOT, "harness", "slides", "check.html"), "-o", checked,
                                         markdown], stderr=log).returncode == 0
        if not made:
            with open(log_path) as log:
                print(log.read(), end="")
            if os.path.exists(html + ".tmp"):
                os.remove(html + ".tmp")
            die(2, f"pandoc could not make the slides of lesson {lesson.number}")
        os.replace(html + ".tmp", html)
        if not browser:
            say(f"  {lesson.folder}: {count_slides(text)} slides (the 1280x720 check skipped: no Chromium)")
            continue
        slides, problems = check_in_browser(browser, checked)
        if slides is None:
            say(f"  {lesson.folder}: {count_slides(text)} slides; the check did not run in {browser}")
            failed = True
        elif problems:
            say(f"  {lesson.folder}: {slides} slides, some do not fit 1280x720:")
            say("\n".join(problems))
            failed = True
        else:
            pdf = os.path.join(out, f"{lesson.folder}.pdf")
            sandbox = ["--no-sandbox"] if os.geteuid() == 0 else []
            subprocess.run([browser, "--headless", *sandbox, "--disable-gpu", "--no-pdf-header-footer",
                            f"--print-to-pdf={pdf}", f"file://{html}"], stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            made_pdf = os.path.isfile(pdf) and os.path.getsize(pdf) > 0
            say(f"  {lesson.folder}: {slides} slides, each fits 1280x720" + ("; PDF too" if made_pdf else ""))
    say(f"The slides are in {shown(out)}/ (open NN_name.html in a browser; arrow keys move).")
    return 1 if failed else 0


