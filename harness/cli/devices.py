"""./course devices: every OpenCL device, numbered as --device takes them."""
import os

from . import setup
from .course import build_dir


def run(args):
    setup.ensure()
    program = os.path.join(build_dir(), "bin", "course-devices")
    os.execv(program, [program, *args])
