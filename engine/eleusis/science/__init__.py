"""The scientist bot's science (NE-30.2): hypothesis families as truth tables, the
evidence a seat's view holds, and the posterior over the hypotheses that survive it."""
