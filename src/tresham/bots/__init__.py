"""tresham.bots"""
