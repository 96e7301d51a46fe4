"""Staff-only dispute review: queue, case file, remedies (see docs/disputes.md)."""
