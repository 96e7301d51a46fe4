"""The rule commitment (NE-23, NE-29.3.3).

``salt`` = HMAC-SHA256(key = the round seed's text, message = "eleusis/rule-salt"), 32
bytes; ``commitment`` = SHA-256("eleusis-rule\\n" + "erl-1" + "\\n" + hex(salt) + "\\n" +
source), the source being the rule's exact NFC-normalised text.
"""

from __future__ import annotations

import hashlib
import hmac

from engine.eleusis.erl import LANGUAGE, normalise

SALT_LABEL = "eleusis/rule-salt"


def rule_salt(round_seed: str) -> bytes:
    """The round's 32-byte rule salt, derived from its (secret) round seed."""
    return hmac.new(round_seed.encode("utf-8"), SALT_LABEL.encode("utf-8"), hashlib.sha256).digest()


def rule_commitment(source: str, salt: bytes, language: str = LANGUAGE) -> str:
    """The published commitment to a rule (lowercase hex)."""
    if len(salt) != 32:
        raise ValueError("the rule salt is 32 bytes")
    text = f"eleusis-rule\n{language}\n{salt.hex()}\n{normalise(source)}"
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def commitment_matches(commitment: str, source: str, salt_hex: str) -> bool:
    """Whether a revealed source and salt match a published commitment (NE-29.2 step 1)."""
    try:
        salt = bytes.fromhex(salt_hex)
    except ValueError:
        return False
    if len(salt) != 32:
        return False
    return hmac.compare_digest(rule_commitment(source, salt), commitment)
