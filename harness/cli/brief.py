"""A lesson's output, kept as it runs and read back: its results tables and their notes (the
tour's summary reads the fastest verified row from them), and the output cut for a room (--brief
of ./course run and ./course tour): the tables, and at most three lines of notes."""
import re
import subprocess
import sys

HEADER = re.compile(r"^  variant  +kernel ms")
RULE = re.compile(r"^  -+$")
ROW = re.compile(r"^  [^ ]")  # a row, or a device's row under it ("  - [0] ...")
NOTE = re.compile(r"^    [^ ]")  # a note's first line; its next lines are indented further
MORE = re.compile(r"^      ")
NOTE_LINES = 3  # what --brief keeps of the notes, the line that says what it left out included


class Table:
    """One results table: its title (the unindented line just above its header, or ""), its
    header, rule and rows as printed, and its notes, each a list of the lines it was printed on."""

    def __init__(self, title, header):
        self.title, self.header, self.rule, self.rows, self.notes = title, header, "", [], []

    def lines(self):
        return ([self.title] if self.title else []) + [self.header] + ([self.rule] if self.rule else []) + self.rows


def tables(output):
    """The results tables a lesson printed, in order."""
    found, table, state, previous = [], None, None, ""
    for line in output.splitlines():
        if HEADER.match(line):
            table = Table(previous if previous and not previous.startswith(" ") else "", line)
            found.append(table)
            state = "rows"
        elif state == "rows" and RULE.match(line) and not table.rows:
            table.rule = line
        elif state == "rows" and ROW.match(line):
            table.rows.append(line)
        elif state in ("rows", "notes") and NOTE.match(line):
            table.notes.append([line])
            state = "notes"
        elif state == "notes" and MORE.match(line):
            table.notes[-1].append(line)
        else:
            state = None
        previous = line
    return found


def fastest_row(output):
    """'fastest: VARIANT T ms' from the results tables a lesson printed (rows verified 'yes')."""
    best = name = None
    for table in tables(output):
        for line in table.rows:
            fields = re.split(r"  +", line)
            if fields[-1] == "yes" and len(fields) > 2:
                try:  # a time is printed with its marks: * too short, + cached
                    value = float(fields[2].rstrip("*+!~"))
                except ValueError:
                    continue
                if best is None or value < best[0]:
                    best, name = (value, fields[2]), fields[1]
    if name is None:
        return ""
    if len(name) > 25:  # keeps the summary in its columns
        name = name[:22] + "..."
    return f"fastest: {name} {best[1]} ms"


def brief(output, whole):
    """OUTPUT cut to its tables and at most NOTE_LINES lines of their notes: whole notes in the
    order printed, and when some do not fit, a last line saying how many lines were left out and
    that the command WHOLE prints them. None when OUTPUT holds no table (nothing to cut)."""
    found = tables(output)
    if not found:
        return None
    lines = []
    for table in found:
        lines += ([""] if lines else []) + table.lines()
    notes = [note for table in found for note in table.notes]
    total = sum(len(note) for note in notes)
    room = NOTE_LINES if total <= NOTE_LINES else NOTE_LINES - 1
    kept = 0
    for note in notes:
        if kept + len(note) > room:
            break
        lines += note
        kept += len(note)
    if kept < total:
        lines.append(f"    ({total - kept} more lines of notes: {whole} prints them)")
    return "\n".join(lines)


def run_lesson(command, show=True):
    """Runs COMMAND, its output kept and, when SHOW, shown as it comes; (exit status, output)."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    kept = bytearray()
    while True:
        chunk = process.stdout.read1(65536)
        if not chunk:
            break
        kept += chunk
        if show:
            sys.stdout.buffer.write(chunk)
            sys.stdout.flush()
    return process.wait(), kept.decode(errors="replace")


def show_brief(status, output, whole):
    """What --brief shows of a lesson that ran: its tables and at most three lines of notes when
    it verified, else everything it printed (a failure's reasons are not cut)."""
    cut = brief(output, whole) if status == 0 else None
    text = output if cut is None else cut + "\n"
    sys.stdout.write(text)
    sys.stdout.flush()
