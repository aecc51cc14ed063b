#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Merge a hand-written cover letter with a fresh `git format-patch` one.

Usage: cover-letter.py OLD NEW PACKAGE_VERSION > MERGED

The sender, subject, date and text (everything before the shortlog) come
from OLD, the patch count, shortlog, diffstat and base-commit from NEW.  Without an
OLD cover letter, NEW's placeholders are filled with a skeleton to edit.
"""
import os
import re
import sys

SHORTLOG = re.compile(r'^\S.*\(\d+\):$')


def split(text):
    head, _, body = text.partition('\n\n')
    lines = body.split('\n')
    for i, line in enumerate(lines):
        if SHORTLOG.match(line):
            return head, '\n'.join(lines[:i]), '\n'.join(lines[i:])
    return head, body, ''


def header(head, name):
    m = re.search(r'^%s: (.*(?:\n[ \t].*)*)' % name, head, re.M)
    return m.group(1) if m else None


def main(old_path, new_path, version):
    with open(new_path) as f:
        new = f.read()
    nhead, nblurb, ntail = split(new)
    if os.path.exists(old_path):
        with open(old_path) as f:
            ohead, oblurb, _ = split(f.read())
        subj = header(ohead, 'Subject')
        subj = re.sub(r'^\[PATCH[^\]]*\]\s*', '', subj)
        date = header(ohead, 'Date')
        sender = header(ohead, 'From')
        blurb = oblurb
    else:
        subj = 'sched: Task latency nice'
        date = sender = None
        blurb = ('TODO: motivation, interface, tests and figures.\n\n'
                 'Based on Debian linux-source-6.12 %s.\n' % version)
    nsubj = header(nhead, 'Subject')
    prefix = re.match(r'^(\[PATCH[^\]]*\])', nsubj).group(1)
    nhead = nhead.replace('Subject: ' + nsubj, 'Subject: %s %s' % (prefix, subj))
    # The sender is whoever wrote the cover letter, not the git identity
    # of the tree that exported it.
    if sender:
        nhead = re.sub(r'^From: .*$', lambda m: 'From: ' + sender, nhead, flags=re.M)
    if date:
        nhead = re.sub(r'^Date: .*$', lambda m: 'Date: ' + date, nhead, flags=re.M)
    sys.stdout.write(nhead + '\n\n' + blurb.rstrip('\n') + '\n\n' + ntail)


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])
