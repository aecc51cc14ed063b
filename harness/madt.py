# SPDX-License-Identifier: GPL-2.0
"""Renumber a guest's CPUs by rewriting QEMU's ACPI MADT.

Linux numbers the CPUs present at boot in the order of the MADT's local
APIC entries (arch/x86/kernel/cpu/topology.c).  QEMU lists them in APIC ID
order, so SMT siblings get adjacent numbers (0-1, 2-3, ...).  Many Intel
machines list the first thread of every core first, which numbers sibling
pairs apart (0 and N/2, 1 and N/2+1, ...).  A bounded search that steps
its cursor by CPU number behaves differently under the two, so the
harness can boot either; Linux takes the reordered table from the
initramfs (kernel/firmware/acpi/, Documentation/admin-guide/acpi/
initrd_table_override.rst), which needs a higher OEM revision.

The guest cannot hand its table out (its ACPI interpreter does not load
without PCI, so /sys/firmware/acpi is missing), so qemu_madt() builds it
as QEMU's pc machine does (hw/i386/acpi-common.c): one local APIC per CPU,
the I/O APIC, the ISA interrupt overrides and the LINT1 NMI.  The boot
log's "ACPI: APIC ... (v01 BOCHS  BXPC     00000002" line and the topology
check's sibling_numbering test show that the guest took it.  Checked
byte for byte against the table in the memory of Debian 12's QEMU 7.2
guests (the monitor's xp command) for 1x2x2, 2x4x2 and 1x8x2.

    python3 -m harness madt ...
    qemu TOPO OUT [apart]            QEMU's table for SxCxT, or its
                                     reordered upgrade (siblings apart)
    show FILE                        the local APIC entries, in order
"""
import struct
import sys

from . import topology

HEADER = 44                     # ACPI header (36) + local APIC address, flags
LAPIC, X2APIC = 0, 9


class MadtError(ValueError):
    pass


def checksum_ok(table):
    return sum(table) % 256 == 0


def entries(table):
    """The MADT's entries as (offset, type, bytes)."""
    if len(table) < HEADER or table[:4] != b'APIC':
        raise MadtError('not an ACPI MADT (signature %r)' % table[:4])
    length = struct.unpack_from('<I', table, 4)[0]
    if length != len(table):
        raise MadtError('table length %d, %d bytes given' % (length, len(table)))
    if not checksum_ok(table):
        raise MadtError('bad checksum')
    out, off = [], HEADER
    while off < length:
        if off + 2 > length:
            raise MadtError('truncated entry at %d' % off)
        typ, elen = table[off], table[off + 1]
        if elen < 2 or off + elen > length:
            raise MadtError('bad entry length %d at %d' % (elen, off))
        out.append((off, typ, bytes(table[off:off + elen])))
        off += elen
    return out


def apic_id(entry):
    typ, data = entry[1], entry[2]
    if typ == LAPIC:
        return data[3]
    return struct.unpack_from('<I', data, 4)[0]


def apart(table, threads):
    """The table with its local APIC entries in thread-major order.

    QEMU's APIC ID holds the thread in its low ceil(log2(threads)) bits
    and the package and core above them; sorting on (thread, the rest)
    lists thread 0 of every core, package by package, then thread 1, ...
    The boot CPU (APIC ID 0) stays first.  Other entries keep their
    places; the OEM revision goes up by one so that Linux takes it.
    """
    if threads < 1:
        raise MadtError('threads must be at least 1')
    bits = (threads - 1).bit_length()
    ents = entries(table)
    cpus = [e for e in ents if e[1] in (LAPIC, X2APIC)]
    if not cpus:
        raise MadtError('no local APIC entries')

    def key(e):
        a = apic_id(e)
        return (a & ((1 << bits) - 1), a >> bits)
    order = iter(sorted(cpus, key=key))
    body = b''.join(next(order)[2] if e[1] in (LAPIC, X2APIC) else e[2] for e in ents)
    out = bytearray(table[:HEADER]) + body
    oem_rev = struct.unpack_from('<I', out, 24)[0]
    struct.pack_into('<I', out, 24, (oem_rev + 1) & 0xffffffff)
    out[9] = 0
    out[9] = (-sum(out)) % 256
    return bytes(out)


def qemu_apic_ids(sockets, cores, threads):
    """QEMU's APIC IDs in CPU index order: package, core, thread fields."""
    tbits = (threads - 1).bit_length()
    cbits = (cores - 1).bit_length()
    return [s << (cbits + tbits) | c << tbits | t
            for s in range(sockets) for c in range(cores) for t in range(threads)]


def qemu_madt(sockets, cores, threads):
    """The MADT QEMU's pc machine gives a guest of SxCxT CPUs."""
    ids = qemu_apic_ids(sockets, cores, threads)
    if max(ids) > 254:
        raise MadtError('APIC IDs above 254 need x2APIC entries: not done here')
    body = b''.join(struct.pack('<BBBBI', LAPIC, 8, uid, a, 1) for uid, a in enumerate(ids))
    body += struct.pack('<BBBBII', 1, 12, 0, 0, 0xfec00000, 0)     # I/O APIC
    body += struct.pack('<BBBBIH', 2, 10, 0, 0, 2, 0)              # IRQ0 -> GSI2
    for irq in (5, 9, 10, 11):                                      # PCI: level, high
        body += struct.pack('<BBBBIH', 2, 10, 0, irq, irq, 0xd)
    body += struct.pack('<BBBHB', 4, 6, 0xff, 0, 1)                # NMI on LINT1
    t = bytearray(b'APIC' + struct.pack('<I', HEADER + len(body)) + bytes([1, 0]) +
                  b'BOCHS ' + b'BXPC    ' + struct.pack('<I', 1) + b'BXPC' +
                  struct.pack('<I', 1) + struct.pack('<II', 0xfee00000, 1) + body)
    t[9] = (-sum(t)) % 256
    return bytes(t)


def show(table):
    return ['%s uid %d apic %d' % ('lapic' if e[1] == LAPIC else 'x2apic',
                                   e[2][2] if e[1] == LAPIC else
                                   struct.unpack_from('<I', e[2], 8)[0], apic_id(e))
            for e in entries(table) if e[1] in (LAPIC, X2APIC)]


def main(argv):
    try:
        if len(argv) in (3, 4) and argv[0] == 'qemu' and argv[3:] in ([], ['apart']):
            s, c, t = topology.parse(argv[1])
            table = qemu_madt(s, c, t)
            if argv[3:]:
                table = apart(table, t)
            with open(argv[2], 'wb') as f:
                f.write(table)
        elif len(argv) == 2 and argv[0] == 'show':
            with open(argv[1], 'rb') as f:
                print('\n'.join(show(f.read())))
        else:
            print(__doc__.strip().split('\n\n')[-1], file=sys.stderr)
            return 2
    except (OSError, ValueError) as e:
        print('madt: %s' % e, file=sys.stderr)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
