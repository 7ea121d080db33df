#!/usr/bin/env python3
"""Builds the man pages from their sources in docs/man/ and the tools' own --help.

A source docs/man/NAME.S.in is roff with placeholders. For a tool (a NAME that is a built
executable in --bin), the name line, SYNOPSIS, OPTIONS, EXAMPLES and EXIT STATUS come from
`NAME --help`, so the page cannot drift from the tool; the rest (DESCRIPTION, FILES, SEE ALSO ...)
is written by hand in the source. A page that is not a tool (the recording format, section 5)
only gets @VERSION@ and @DATE@.

    packaging/man.py --bin .build/release --out .build/man [NAME ...]

With NAMEs (the tools to ship) every one must have a source; without, it builds every source whose
tool exists in --bin. Pages that are not tools (section 5) are always built.
Exit 1 names a tool whose --help cannot be read or parsed, or a placeholder left unfilled.
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCES = os.path.join(ROOT, "docs", "man")
TOOL_PLACEHOLDERS = ("@NAME_LINE@", "@SYNOPSIS@", "@OPTIONS@", "@EXAMPLES@", "@EXIT_STATUS@")


def run(*args):
    return subprocess.run(args, capture_output=True, text=True, cwd=ROOT)


def version():
    return run("sh", os.path.join(ROOT, "packaging", "version.sh")).stdout.strip()


def page_date():
    """The last commit's date (reproducible), else SOURCE_DATE_EPOCH, else today."""
    if "SOURCE_DATE_EPOCH" in os.environ:
        import time
        return time.strftime("%Y-%m-%d", time.gmtime(int(os.environ["SOURCE_DATE_EPOCH"])))
    r = run("git", "log", "-1", "--format=%cs")
    if r.returncode == 0 and r.stdout.strip():
        return r.stdout.strip()
    import datetime
    return datetime.date.today().isoformat()


def escape(text):
    """Plain text to roff: backslashes, hyphens as minus signs (options), no control line."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


class Help:
    """The parts of `TOOL --help` (CommandSpec.helpText's layout)."""

    OPTION = re.compile(r"^  (?:-(\S), |    )--([A-Za-z0-9][A-Za-z0-9-]*)(?: (\S+))?(?:\s{2,}(.*))?$")

    def __init__(self, name, text):
        self.name = name
        lines = text.split("\n")
        first = lines[0]
        if not first.startswith(name + ": "):
            raise ValueError(f"{name} --help: the first line is not '{name}: summary'")
        self.summary = first[len(name) + 2:]
        self.usage, self.options, self.examples, self.exit_status = [], [], [], ""
        section = None
        for line in lines[1:]:
            if line in ("Usage:", "Options:", "Examples:"):
                section = line[:-1]
                continue
            if line.startswith("Exit codes:"):
                self.exit_status = line[len("Exit codes:"):].strip()
                section = None
                continue
            if not line.strip():
                continue
            if section == "Usage":
                # A line wrapped in --help (UsageLines) goes on without the name: one synopsis line.
                if line.strip().startswith(name + " ") or line.strip() == name or not self.usage:
                    self.usage.append(line.strip()[len(name):].strip())
                else:
                    self.usage[-1] += " " + line.strip()
            elif section == "Options":
                m = self.OPTION.match(line)
                if m:
                    self.options.append({"short": m.group(1), "long": m.group(2),
                                         "value": m.group(3), "help": m.group(4) or ""})
                elif self.options and line.startswith("      "):
                    self.options[-1]["help"] += " " + line.strip()
                else:
                    raise ValueError(f"{name} --help: cannot read option line {line!r}")
            elif section == "Examples":
                if line.startswith("      ") and self.examples:
                    self.examples[-1][1].append(line.strip())
                else:
                    self.examples.append((line.strip(), []))
        if not self.options:
            raise ValueError(f"{name} --help lists no options")

    def roff(self, placeholder):
        if placeholder == "@NAME_LINE@":
            return f"{escape(self.name)} \\- {escape(self.summary)}"
        if placeholder == "@SYNOPSIS@":
            return "\n.br\n".join(f"\\fB{escape(self.name)}\\fR {escape(u)}" for u in self.usage)
        if placeholder == "@OPTIONS@":
            out = []
            for o in self.options:
                tag = (f"\\fB\\-{escape(o['short'])}\\fR, " if o["short"] else "") + f"\\fB\\-\\-{escape(o['long'])}\\fR"
                if o["value"]:
                    tag += f" \\fI{escape(o['value'])}\\fR"
                out += [".TP", tag, escape(o["help"])]
            return "\n".join(out)
        if placeholder == "@EXAMPLES@":
            out = []
            for command, what in self.examples:
                out += [".TP", f"\\fB{escape(command)}\\fR", escape(" ".join(what)) if what else ""]
            return "\n".join(out)
        if placeholder == "@EXIT_STATUS@":
            return escape(self.exit_status)
        raise KeyError(placeholder)


def build(source, bin_dir, out_dir, ver, date):
    base = os.path.basename(source)[:-3]            # NAME.S
    name, section = base.rsplit(".", 1)
    text = open(source, encoding="utf-8").read()
    text = text.replace("@VERSION@", ver).replace("@DATE@", date)
    if any(p in text for p in TOOL_PLACEHOLDERS):
        tool = os.path.join(bin_dir, name)
        r = subprocess.run([tool, "--help"], capture_output=True, text=True)
        if r.returncode != 0:
            raise ValueError(f"{tool} --help exited {r.returncode}: {r.stderr.strip()}")
        h = Help(name, r.stdout)
        for p in TOOL_PLACEHOLDERS:
            text = text.replace(p, h.roff(p))
    left = re.findall(r"@[A-Z_]+@", text)
    if left:
        raise ValueError(f"{source}: unfilled placeholder(s) {', '.join(sorted(set(left)))}")
    os.makedirs(out_dir, exist_ok=True)
    path = os.path.join(out_dir, base)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def main():
    ap = argparse.ArgumentParser(description="Build man pages from docs/man/*.in and each tool's --help.")
    ap.add_argument("--bin", required=True, help="directory holding the built tools")
    ap.add_argument("--out", required=True, help="where the pages go (NAME.S)")
    ap.add_argument("names", nargs="*", help="the tools to build pages for (each must have a source)")
    a = ap.parse_args()
    sources = sorted(os.path.join(SOURCES, f) for f in os.listdir(SOURCES) if f.endswith(".in"))
    ver, date = version(), page_date()
    status = 0
    for source in sources:
        name = os.path.basename(source)[:-3].rsplit(".", 1)[0]
        is_tool = any(p in open(source, encoding="utf-8").read() for p in TOOL_PLACEHOLDERS)
        if is_tool and a.names and name not in a.names:
            continue
        if not a.names and is_tool and not os.access(os.path.join(a.bin, name), os.X_OK):
            continue                      # a page for a tool this tree does not build (yet)
        try:
            print(build(source, a.bin, a.out, ver, date))
        except (OSError, ValueError) as e:
            print(f"packaging/man.py: {e}", file=sys.stderr)
            status = 1
    missing = [n for n in a.names if not any(os.path.basename(s).startswith(n + ".") for s in sources)]
    for n in missing:
        print(f"packaging/man.py: no man page source docs/man/{n}.N.in; write one (see docs/man/imu-steps.1.in)", file=sys.stderr)
        status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
