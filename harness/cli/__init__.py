"""The commands of ./course, one module a command (cli/NAME.py runs `./course NAME`), and what
they share: the course's folders and lessons (course.py), the build (setup.py), the table of
commands and their help (commands.py)."""
