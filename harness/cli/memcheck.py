"""./course memcheck [LESSON [ARGS...]]: a lesson (01 by default) under valgrind's memcheck."""
import os

from . import setup
from .course import ROOT


def run(args):
    if not setup.have("valgrind"):
        setup.apt_install(["valgrind"], ["valgrind"])
    setup.ensure()
    script = os.path.join(ROOT, "valgrind", "memcheck.sh")
    os.execv(script, [script, *args])
