"""tresham.titles"""
