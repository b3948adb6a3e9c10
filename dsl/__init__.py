"""The effect language: grammar, parser to a located AST, static checks, compiler."""
