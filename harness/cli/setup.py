"""./course setup: installs the missing Debian packages and builds into build/. Every command that
needs the build calls ensure(), which does both only when a file of the course changed since the
last build that succeeded (build/course-setup.stamp holds a hash of every file's name, size and
time)."""
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

from .course import ROOT, build_dir, die, jobs, lines_around, print_err, say, shown

# The packages the course needs, under the same names on Debian 12 and 13 and Ubuntu 22.04 and
# 24.04 (on Ubuntu several are in universe), except the nice to have that some releases lack
# (oclgrind: not in Debian 13; the site's theme: not in Ubuntu 22.04; chromium: a snap on
# Ubuntu), asked for only where packaged; missing_packages says what each one provides.
NICE_TO_HAVE = ("doxygen-awesome-css", "chromium", "doxygen", "clinfo", "oclgrind", "python3-yaml")
STAMP = "course-setup.stamp"
# What the build reads: these files and folders of the course's root (not exercises/: check
# builds those; not a class's folders or a report an instructor writes beside the course).
SOURCES = ("CMakeLists.txt", "CMakePresets.json", "cmake", "base", "common", "harness", "kernels", "lessons",
           "solutions", "tests", "docs", "bench", "fuzz", "valgrind", "data")


def have(program):
    return shutil.which(program) is not None


def compiles(code, *flags):
    """Does CODE compile here (headers found, with CPATH too)?"""
    if not have("c++"):
        return False
    return subprocess.run(["c++", "-std=c++17", "-fsyntax-only", "-x", "c++", "-", *flags], input=code.encode(),
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def links(code, library):
    """Does a program calling into LIBRARY link here (LIBRARY_PATH too)?"""
    if not have("c++"):
        return False
    program = code + "\nint main() { return f(); }\n"
    return subprocess.run(["c++", "-x", "c++", "-", "-o", "/dev/null", library], input=program.encode(),
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


def packaged(package):
    """[PACKAGE] where the release has the package, [] elsewhere: a package that is nice to have is
    asked for only there, so that it never fails an install of the others."""
    if have("apt-cache") and subprocess.run(["apt-cache", "show", package], stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL).returncode == 0:
        return [package]
    return []


def browser():
    """The headless browser here, if any."""
    return next((c for c in ("chromium", "chromium-browser", "google-chrome") if have(c)), None)


def missing_packages():
    missing = [p for p, program in (("cmake", "cmake"), ("g++", "c++"), ("make", "make"), ("python3", "python3"))
               if not have(program)]
    if not compiles("#include <CL/cl.h>"):
        missing.append("opencl-c-headers")
    if not compiles("#define CL_HPP_TARGET_OPENCL_VERSION 300\n#include <CL/opencl.hpp>"):
        missing.append("opencl-clhpp-headers")
    if not links("#include <CL/cl.h>\ncl_int f() { return clGetPlatformIDs(0, 0, 0); }", "-lOpenCL"):
        missing.append("ocl-icd-opencl-dev")
    if not compiles("#include <stb/stb_image.h>") and not compiles("#include <stb_image.h>"):
        missing.append("libstb-dev")
    if not compiles("#include <doctest/doctest.h>"):
        missing.append("doctest-dev")
    # An OpenCL driver (ICD) must be registered; PoCL gives one on any CPU. Mesa's (mesa.icd,
    # rusticl.icd) may list no device at all: rusticl lists its devices only with RUSTICL_ENABLE set.
    drivers = [f for f in glob.glob("/etc/OpenCL/vendors/*.icd") if os.path.basename(f) not in ("mesa.icd", "rusticl.icd")]
    if not drivers and not os.environ.get("OCL_ICD_VENDORS"):
        missing.append("pocl-opencl-icd")
    for program in ("doxygen", "clinfo"):
        if not have(program):
            missing.append(program)
    # Oclgrind: the exercise checker runs one case on its simulated device to find races and
    # accesses outside a buffer by source line.
    if not have("oclgrind"):
        missing += packaged("oclgrind")
    # The site's theme (docs/CMakeLists.txt uses it when installed): Debian 12 and 13 have it.
    if not os.path.isfile("/usr/share/doxygen-awesome-css/doxygen-awesome.css"):
        missing += packaged("doxygen-awesome-css")
    # PyYAML, for the test that reads the workflows (tests/container_files.py).
    if have("python3") and subprocess.run(["python3", "-c", "import yaml"], stdout=subprocess.DEVNULL,
                                          stderr=subprocess.DEVNULL).returncode != 0:
        missing += packaged("python3-yaml")
    # Chromium, for the site check and the slides' PDF, where packaged as a browser (not a snap).
    if not have("chromium") and not have("chromium-browser"):
        missing += packaged("chromium")
    return missing


def apt_install(missing, needed):
    """Installs the Debian packages MISSING (as root, else through sudo). Stops with the exact command
    to type when the packages in NEEDED cannot be installed; the others are nice to have."""
    command = "apt-get install -y --no-install-recommends " + " ".join(missing)
    if os.environ.get("COURSE_NO_APT") or not have("apt-get"):
        if needed:
            die(2, f"missing: {' '.join(needed)}. Install them (on Debian/Ubuntu: sudo {command}) and run this again.")
        return
    sudo = []
    if os.geteuid() != 0:
        if have("sudo") and (subprocess.run(["sudo", "-n", "true"], stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL).returncode == 0 or sys.stdin.isatty()):
            sudo = ["sudo"]
        else:
            if needed:
                die(2, f"missing: {' '.join(needed)}. Ask an administrator to run: sudo {command}")
            return
    say("Installing the Debian packages the course needs: " + " ".join(missing))
    log_path = "/tmp/course-apt.log"
    install = sudo + ["env", "DEBIAN_FRONTEND=noninteractive"] + command.split()
    with open(log_path, "w") as log:
        ok = subprocess.run(install, stdout=log, stderr=log).returncode == 0
        if not ok:
            subprocess.run(sudo + ["apt-get", "update", "-qq"], stdout=log, stderr=log)
            ok = subprocess.run(install, stdout=log, stderr=log).returncode == 0
    if not ok:
        with open(log_path, errors="replace") as log:
            print_err(log.read().splitlines()[-20:])
        if needed:
            die(2, f"could not install: {' '.join(missing)} (log: {log_path}). Try: sudo {command}")


def install_packages():
    missing = missing_packages()
    if missing:
        apt_install(missing, [p for p in missing if p not in NICE_TO_HAVE])


def progress_line(line):
    """A line of the build's output as setup shows it ("  [ 45%] Building lessons/..."), or None."""
    if not re.match(r"^\[ *[0-9]+%\] (Building|Linking)", line):
        return None
    line = re.sub(r" (object|executable|static library|shared module|shared library|CXX|C)", "", line, count=1)
    line = "  " + re.sub(r"CMakeFiles/[^/]*\.dir/", "", line, count=1)
    return line if len(line) <= 80 else line[:76] + " ..."


def build(*configure_args):
    """Configures (once) and builds build/, a line per step, the whole output in build/build.log."""
    out = build_dir()
    log_path = os.path.join(out, "build.log")
    if not os.path.isfile(os.path.join(out, "CMakeCache.txt")):
        say(f"Configuring the course in {shown(out)}/ ...")
        os.makedirs(out, exist_ok=True)
        with open(log_path, "w") as log:
            configured = subprocess.run(["cmake", "-S", ROOT, "-B", out, "-DCMAKE_BUILD_TYPE=Release", *configure_args],
                                        stdout=log, stderr=subprocess.STDOUT).returncode == 0
        if not configured:
            with open(log_path, errors="replace") as log:
                print_err(log.read().splitlines()[-30:])
            if os.path.exists(os.path.join(out, "CMakeCache.txt")):
                os.remove(os.path.join(out, "CMakeCache.txt"))
            die(2, f"configuring failed (full log: {log_path})")
    with open(log_path, "w") as log:
        process = subprocess.Popen(["cmake", "--build", out, f"-j{jobs()}"], stdout=subprocess.PIPE,
                                   stderr=subprocess.STDOUT, text=True, errors="replace")
        for line in process.stdout:
            log.write(line)
            shown_line = progress_line(line.rstrip("\n"))
            if shown_line:
                say(shown_line)
        process.wait()
    if process.returncode != 0:
        print_err(lines_around(log_path, "error", 2, 6, 60))
        die(2, f"the build failed (full log: {log_path})")


def files_under(path):
    """PATH itself when it is a file, else every file under it (no __pycache__), in a stable order."""
    if os.path.isfile(path):
        yield path
    for folder, subfolders, files in os.walk(path):
        subfolders[:] = sorted(s for s in subfolders if s != "__pycache__")
        yield from (os.path.join(folder, name) for name in sorted(files))


def sources_hash(root=ROOT):
    """A hash of the name, size and time of every file the build reads (SOURCES)."""
    digest = hashlib.sha256(root.encode())
    for top in SOURCES:
        for path in files_under(os.path.join(root, top)):
            try:
                info = os.stat(path)
            except OSError:
                continue
            digest.update(f"{os.path.relpath(path, root)}\0{info.st_size}\0{info.st_mtime_ns}\n".encode())
    return digest.hexdigest()


def stamp_path():
    return os.path.join(build_dir(), STAMP)


def up_to_date():
    """Did the last setup build these very files?"""
    try:
        with open(stamp_path()) as f:
            return json.load(f).get("sources") == sources_hash()
    except (OSError, ValueError):
        return False


def ensure(always=False):
    """The packages and the build, when a file changed since the last setup that succeeded (ALWAYS:
    in any case)."""
    if not always and up_to_date() and os.path.isfile(os.path.join(build_dir(), "CMakeCache.txt")):
        return
    sources = sources_hash()
    install_packages()
    build()
    write_stamp(sources)


def write_stamp(sources=None):
    """Records that the build holds the files as they are now (as they were at SOURCES)."""
    with open(stamp_path(), "w") as f:
        json.dump({"sources": sources or sources_hash()}, f)


def run(args):
    if args:
        die(2, f"setup takes no arguments (not '{args[0]}')")
    ensure(always=True)
    say(f"The course is built in {shown(build_dir())}/. Next: ./course tour")
