#!/usr/bin/env python3
"""The workflows and the container, read as GitHub and Docker read them:

  every workflow (.github/workflows/*.yml, and harness/classroom/grade.yml, a handout's) parses as
  YAML with its triggers and jobs; the handout's grades what its schedule file lists (the path
  ./course handout writes, harness/cli/schedule.py) and caches apt's packages and ccache's cache;
  teaching/points.json scores every exercise (the workflow reports their points); the image
  workflow publishes to ghcr.io; every FROM of the Dockerfile names a dated tag or a
  digest, and its image runs as a user other than root; the dev container's remoteUser is not
  root; the README's docker run mounts out/ where the image's course writes it.

Then each check is given a broken copy (a moving tag, root, a workflow that grades everything, bad
YAML...) and must fail on it. Usage: container_files.py ROOT. Exit 0 all well, 1 a check failed,
77 (skipped) without PyYAML (Debian's python3-yaml, which ./course setup installs)."""
import glob
import json
import os
import re
import sys

try:
    import yaml
except ImportError:
    print("skipped: no PyYAML to read the workflows (sudo apt-get install python3-yaml)")
    sys.exit(77)

ROOT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.getcwd()
sys.path.insert(0, os.path.join(ROOT, "harness"))
from cli import course, schedule  # noqa: E402  (the course's own lessons and schedule file)

GRADE_WORKFLOW = "harness/classroom/grade.yml"


def read(relative):
    with open(os.path.join(ROOT, relative), encoding="utf-8") as f:
        return f.read()


def workflow_problems(text):
    """What keeps TEXT from being a workflow GitHub runs: not YAML, no trigger, a job without steps."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as error:
        return [f"not YAML: {str(error).splitlines()[0]}"]
    if not isinstance(data, dict):
        return ["not a mapping"]
    problems = []
    if "on" not in data and True not in data:  # YAML 1.1 reads the key on as true
        problems.append("no 'on:' (trigger)")
    jobs = data.get("jobs")
    if not isinstance(jobs, dict) or not jobs:
        return problems + ["no jobs"]
    for name, job in jobs.items():
        if not isinstance(job, dict) or not job.get("runs-on") or not isinstance(job.get("steps"), list):
            problems.append(f"job {name} has no runs-on or no steps")
    return problems


def steps(text):
    data = yaml.safe_load(text)
    return [step for job in data["jobs"].values() for step in job["steps"]]


def grade_workflow_problems(text):
    """The handout's workflow grades the schedule's exercises and caches apt and ccache."""
    problems = workflow_problems(text)
    if problems:
        return problems
    runs = "\n".join(step.get("run", "") for step in steps(text))
    if not re.search(r"\./course grade --schedule " + re.escape(schedule.PATH) + r"\b", runs):
        problems.append(f"no step runs ./course grade --schedule {schedule.PATH}")
    if re.search(r"\./course grade [0-9]", runs):
        problems.append("a step grades exercises by number, not by the schedule")
    cached = " ".join(str(step.get("with", {}).get("path", "")) for step in steps(text)
                      if str(step.get("uses", "")).startswith("actions/cache@"))
    if "apt" not in cached or "ccache" not in cached:
        problems.append(f"actions/cache keeps no apt packages and ccache cache (paths: '{cached}')")
    env = yaml.safe_load(text)["jobs"]["grade"].get("env", {})
    if env.get("CMAKE_CXX_COMPILER_LAUNCHER") != "ccache":
        problems.append("the build does not go through ccache (CMAKE_CXX_COMPILER_LAUNCHER)")
    return problems


def image_workflow_problems(text):
    """The image workflow logs in to ghcr.io and pushes there."""
    problems = workflow_problems(text)
    runs = "" if problems else "\n".join(step.get("run", "") for step in steps(text))
    if not problems and not ("docker push" in runs and re.search(r"docker login ghcr\.io", runs)):
        problems.append("no step logs in to ghcr.io and pushes the image")
    return problems


def dockerfile_problems(text):
    """Every FROM of an image (not of an earlier stage) is pinned; the last USER is not root."""
    problems, stages, user = [], set(), None
    for line in text.splitlines():
        words = line.split()
        if len(words) >= 2 and words[0].upper() == "FROM":
            image = [w for w in words[1:] if not w.startswith("--")][0]
            if image not in stages and not (re.search(r"@sha256:[0-9a-f]{64}$", image)
                                            or re.fullmatch(r"[\w./-]+:[\w.]+-20\d\d[01]\d[0-3]\d(-slim)?", image)):
                problems.append(f"FROM {image} is a moving tag: pin a dated tag (debian:trixie-YYYYMMDD) or "
                                "a digest")
            if len(words) >= 4 and words[-2].upper() == "AS":
                stages.add(words[-1])
            user = None
        elif len(words) >= 2 and words[0].upper() == "USER":
            user = words[1]
    if not any(line.split()[:1] in (["FROM"], ["from"]) for line in text.splitlines()):
        problems.append("no FROM")
    if user in (None, "root", "0") or (user or "").startswith(("root:", "0:")):
        problems.append(f"the image runs as {user or 'root (no USER)'}")
    return problems


def devcontainer_problems(text):
    try:
        config = json.loads(text)
    except ValueError as error:
        return [f"not JSON (a handout rewrites it as JSON): {error}"]
    problems = []
    if config.get("remoteUser") in (None, "root", "0"):
        problems.append(f"remoteUser is {config.get('remoteUser') or 'unset (the image user)'}, not a user")
    if not config.get("image") and not config.get("build", {}).get("dockerfile"):
        problems.append("neither an image nor a Dockerfile")
    return problems


def readme_problems(text, dockerfile):
    """The README's docker run mounts out/ at the image's course folder."""
    workdir = [line.split()[1] for line in dockerfile.splitlines() if line.upper().startswith("WORKDIR ")][-1]
    runs = [line for line in text.splitlines() if "docker run" in line]
    if not runs:
        return ["no docker run"]
    return [] if all(re.search(r'-v "?\$PWD/out:' + re.escape(workdir) + r'/out"?', r) for r in runs) else [
        f"a docker run does not mount out/ at {workdir}/out: {runs}"]


def points_problems(text):
    """The workflow's --classroom needs points for every exercise a handout's schedule lists."""
    points = json.loads(text).get("points", {})
    return [f"teaching/points.json gives exercise {e.number} no points" for e in course.exercises()
            if e.number not in points]


def main():
    failed = []

    def check(what, problems):
        print(("ok    " if not problems else "FAIL  ") + what)
        for problem in problems:
            print("        " + problem)
        if problems:
            failed.append(what)

    workflows = sorted(glob.glob(os.path.join(ROOT, ".github", "workflows", "*.yml")))
    check("there are workflows", [] if workflows else ["no .github/workflows/*.yml"])
    for path in workflows + [os.path.join(ROOT, GRADE_WORKFLOW)]:
        check(f"{os.path.relpath(path, ROOT)} is a workflow", workflow_problems(read(path)))
    check(f"{GRADE_WORKFLOW} grades {schedule.PATH}'s exercises, caching apt and ccache",
          grade_workflow_problems(read(GRADE_WORKFLOW)))
    # A handout (no solutions/) has the classroom workflow only; the course publishes the image.
    handout = not os.path.isdir(os.path.join(ROOT, "solutions"))
    if handout:
        print("(a handout: the course's own workflows, image.yml among them, are not here)")
    else:
        check(".github/workflows/image.yml publishes to ghcr.io",
              image_workflow_problems(read(".github/workflows/image.yml")))
    check("teaching/points.json scores every exercise a handout's schedule lists",
          points_problems(read("teaching/points.json")))
    dockerfile = read("Dockerfile")
    check("the Dockerfile's bases are pinned and its user is not root", dockerfile_problems(dockerfile))
    check(".devcontainer/devcontainer.json runs as a user, not root",
          devcontainer_problems(read(".devcontainer/devcontainer.json")))
    check("the README's docker run mounts out/", readme_problems(read("README.md"), dockerfile))

    # Each check fails on a broken copy.
    grade = read(GRADE_WORKFLOW)
    broken = {
        "a workflow that is not YAML": workflow_problems(grade.replace("jobs:", "jobs: [", 1)),
        "a workflow without jobs": workflow_problems("on: push\n"),
        "a grade workflow that grades by number": grade_workflow_problems(
            grade.replace("--schedule " + schedule.PATH, "01 02 03")),
        "a grade workflow without the apt cache": grade_workflow_problems(grade.replace("apt-archives/*.deb", "x")),
        "an image workflow that pushes nowhere": image_workflow_problems(
            read(GRADE_WORKFLOW if handout else ".github/workflows/image.yml").replace("docker push", "echo")),
        "FROM debian:13": dockerfile_problems(dockerfile.replace("FROM debian:trixie-20", "FROM debian:13 #", 1)),
        "FROM debian:trixie": dockerfile_problems(re.sub(r"debian:trixie-\d+", "debian:trixie", dockerfile)),
        "no USER": dockerfile_problems(re.sub(r"(?m)^USER .*$", "", dockerfile)),
        "remoteUser root": devcontainer_problems(re.sub(r'"remoteUser": "\w+"', '"remoteUser": "root"',
                                                        read(".devcontainer/devcontainer.json"))),
        "points.json without exercise 13": points_problems(read("teaching/points.json").replace('"13"', '"x"')),
        "a docker run without out/": readme_problems("docker run --rm -it opencl-course ./course tour\n", dockerfile),
    }
    for what, problems in broken.items():
        check(f"the check finds {what}", [] if problems else ["it passed"])
    if failed:
        print(f"{len(failed)} check(s) failed.")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
