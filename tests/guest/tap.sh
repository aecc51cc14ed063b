# SPDX-License-Identifier: GPL-2.0
# TAP helpers for the guest's shell tests, sourced by them (". /tests/tap.sh"):
# each check prints "ok N" or "not ok N" with its description, and the
# script prints its plan last with tap_done.
n=0
failed=0
ok() { # DESCRIPTION CONDITION...
	n=$((n + 1))
	desc=$1
	shift
	if "$@"; then
		echo "ok $n $desc"
	else
		echo "not ok $n $desc"
		failed=$((failed + 1))
	fi
}
has() { # OUTPUT TEXT: OUTPUT contains TEXT
	case "$1" in *"$2"*) return 0 ;; esac
	echo "# expected \"$2\" in: $1"
	return 1
}
is() { # GOT WANT
	[ "$1" = "$2" ] && return 0
	echo "# got \"$1\", wanted \"$2\""
	return 1
}
skip() { # DESCRIPTION REASON
	n=$((n + 1))
	echo "ok $n $1 # SKIP $2"
}
tap_done() { # the plan, and the exit status: 0 when every check passed
	echo "1..$n"
	[ "$failed" -eq 0 ]
}
echo "TAP version 13"
