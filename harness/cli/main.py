"""./course COMMAND [arguments]: finds the command's module (cli/COMMAND.py) and runs it."""
import importlib
import sys

from . import commands
from .course import Stop, save_shipped, say

# The commands that take --help themselves: a lesson's options, the tour's, the benchmark's.
OWN_HELP = ("run", "tour", "bench")


def main(argv):
    name = argv[0] if argv else "help"
    args = argv[1:]
    try:
        if name in ("help", "-h", "--help"):
            say(commands.usage())
            return 0
        if args[:1] in (["--help"], ["-h"]) and (name not in OWN_HELP or (name == "run" and len(args) == 1)):
            text = commands.command_help(name)
            if text:
                say(text)
                return 0
        if not commands.find(name):
            near = commands.nearest(name, [c.name for c in commands.COMMANDS])
            raise Stop(2, f"unknown command '{name}'" + (f"; did you mean '{near}'?" if near else "")
                       + " ('./course help' lists the commands)")
        # The first command run in this tree keeps a copy of the exercises as shipped, for reset.
        if name != "reset":
            save_shipped()
        module = importlib.import_module(f".{name}", __package__)
        return module.run(args) or 0
    except Stop as stop:
        sys.stdout.flush()
        if stop.message:
            print(f"course: {stop.message}", file=sys.stderr)
        return stop.code
    except KeyboardInterrupt:
        return 130
