"""``isprime`` of ERL (NE-21.4, Our ruling OR04)."""

from __future__ import annotations

_MR_BASES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)


_SIEVE_LIMIT = 1 << 16


def _sieve(limit: int) -> bytes:
    flags = bytearray([1]) * limit
    flags[0:2] = b"\x00\x00"
    for i in range(2, int(limit**0.5) + 1):
        if flags[i]:
            flags[i * i :: i] = bytes(len(range(i * i, limit, i)))
    return bytes(flags)


_SMALL_PRIMES = _sieve(_SIEVE_LIMIT)
"""Primality of every n below 65,536, looked up (positions and rank sums stay far below)."""


def is_prime(n: int) -> bool:
    """Deterministic Miller-Rabin with the first 13 primes as bases: exact for n below
    3.3e24, bounded work for any n (Our ruling OR04); a table lookup below 65,536."""
    if n < 2:
        return False
    if n < _SIEVE_LIMIT:
        return bool(_SMALL_PRIMES[n])
    for p in _MR_BASES:
        if n % p == 0:
            return n == p
    d, s = n - 1, 0
    while d % 2 == 0:
        d, s = d // 2, s + 1
    for a in _MR_BASES:
        x = pow(a, d, n)
        if x in (1, n - 1):
            continue
        for _ in range(s - 1):
            x = x * x % n
            if x == n - 1:
                break
        else:
            return False
    return True
