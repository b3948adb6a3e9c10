"""What every room stands on: the error hierarchy with source positions, the seeded random generator, and safe reading and writing of files."""
