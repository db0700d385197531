"""./course devices: every OpenCL device, numbered as --device takes them."""
import os

from . import setup
from .course import build_dir
from .run import exec_with_guards


def run(args):
    setup.ensure()
    exec_with_guards([os.path.join(build_dir(), "bin", "course-devices"), *args], guards=False)
