"""Load test of the production-like stack (issue 10): ``python -m loadtest.run``."""
