# SPDX-License-Identifier: GPL-2.0
"""harness/madt.py: the MADT that numbers SMT siblings apart."""
import io
import os
import struct
import tempfile
import unittest
from contextlib import redirect_stderr

from harness import madt


def table(apic_ids, oem_rev=1):
    """A MADT laid out as QEMU's: local APICs, an I/O APIC, overrides."""
    body = b''.join(struct.pack('<BBBBI', 0, 8, uid, a, 1)
                    for uid, a in enumerate(apic_ids))
    body += struct.pack('<BBBBII', 1, 12, 0, 0, 0xfec00000, 0)
    body += struct.pack('<BBBBIH', 2, 10, 0, 0, 2, 0)
    body += struct.pack('<BBBHB', 4, 6, 0xff, 0, 1)
    hdr = bytearray(b'APIC' + struct.pack('<I', 44 + len(body)) + bytes([3, 0]) +
                    b'BOCHS ' + b'BXPC    ' + struct.pack('<I', oem_rev) +
                    b'BXPC' + struct.pack('<I', 1) + struct.pack('<II', 0xfee00000, 1))
    t = bytearray(hdr + body)
    t[9] = (-sum(t)) % 256
    return bytes(t)


def apics(t):
    return [madt.apic_id(e) for e in madt.entries(t) if e[1] == madt.LAPIC]


class TestApart(unittest.TestCase):
    def test_two_threads(self):
        # 2x4x2: APIC IDs socket << 3 | core << 1 | thread.
        ids = [s << 3 | c << 1 | t for s in range(2) for c in range(4) for t in range(2)]
        out = madt.apart(table(ids), 2)
        self.assertTrue(madt.checksum_ok(out))
        self.assertEqual(apics(out), [0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15])
        # Each APIC ID keeps its processor UID.
        for e in madt.entries(out):
            if e[1] == madt.LAPIC:
                self.assertEqual(e[2][2], ids.index(e[2][3]))
        # Linux upgrades only to a higher OEM revision.
        self.assertEqual(struct.unpack_from('<I', out, 24)[0], 2)
        # The other entries stay where they were.
        self.assertEqual([e[1] for e in madt.entries(out)], [0] * 16 + [1, 2, 4])
        self.assertEqual(len(out), len(table(ids)))

    def test_three_threads_and_one(self):
        # 1x2x3: two bits of thread; IDs 0,1,2,4,5,6.
        ids = [c << 2 | t for c in range(2) for t in range(3)]
        self.assertEqual(apics(madt.apart(table(ids), 3)), [0, 4, 1, 5, 2, 6])
        # One thread: the order stays.
        self.assertEqual(apics(madt.apart(table([0, 1, 2, 3]), 1)), [0, 1, 2, 3])

    def test_bad_tables(self):
        good = table([0, 1])
        bad_sum = bytearray(good)
        bad_sum[9] ^= 1
        for t, why in ((b'FACP' + good[4:], 'not an ACPI MADT'),
                       (bytes(bad_sum), 'bad checksum'),
                       (good[:-1], 'table length'),
                       (table([]), 'no local APIC')):
            with self.assertRaisesRegex(madt.MadtError, why):
                madt.apart(t, 2)


class TestQemu(unittest.TestCase):
    def test_layout(self):
        # 0x90 and 0xf0 bytes: the lengths QEMU's guests log for these.
        self.assertEqual(len(madt.qemu_madt(1, 2, 2)), 0x90)
        self.assertEqual(len(madt.qemu_madt(2, 4, 2)), 0xf0)
        t = madt.qemu_madt(2, 4, 2)
        self.assertTrue(madt.checksum_ok(t))
        self.assertEqual(t[:4] + t[10:24], b'APICBOCHS BXPC    ')
        self.assertEqual(apics(t), list(range(16)))
        self.assertEqual([e[1] for e in madt.entries(t)], [0] * 16 + [1] + [2] * 5 + [4])

    def test_apic_ids(self):
        # Fields rounded up to powers of two: 3 cores take two bits.
        self.assertEqual(madt.qemu_apic_ids(2, 3, 1), [0, 1, 2, 4, 5, 6])
        self.assertEqual(madt.qemu_apic_ids(1, 2, 3), [0, 1, 2, 4, 5, 6])

    def test_command(self):
        with tempfile.TemporaryDirectory() as d:
            out = os.path.join(d, 'apic.aml')
            self.assertEqual(madt.main(['qemu', '2x4x2', out, 'apart']), 0)
            with open(out, 'rb') as f:
                self.assertEqual(apics(f.read())[:3], [0, 2, 4])
            with redirect_stderr(io.StringIO()) as err:
                self.assertEqual(madt.main(['qemu', '2x4', out]), 1)
                self.assertEqual(madt.main(['qemu', '2x4x2', out, 'intel']), 2)
            self.assertIn('SOCKETSxCORESxTHREADS', err.getvalue())


if __name__ == '__main__':
    unittest.main()
