"""tresham.titles.t1883"""
