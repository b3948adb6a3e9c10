"""Many games at once: simulate and compare, their statistics, reports, worker processes and clean stops."""
