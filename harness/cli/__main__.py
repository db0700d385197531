"""python3 harness/cli COMMAND ...: the commands of ./course (the script only makes sure python3 is
here, then hands over to this)."""
import os
import sys

if sys.version_info < (3, 9):  # written for any Python 3, so that an old one reads this far
    sys.stderr.write("course: the course's commands need Python 3.9 or later; this is %s\n" % sys.version.split()[0])
    sys.exit(2)

# Run as a folder, this file's folder is first on the path: its parent makes `cli` a package.
sys.path[0] = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

from cli.main import main  # noqa: E402

sys.exit(main(sys.argv[1:]))
