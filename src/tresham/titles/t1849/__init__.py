"""tresham.titles.t1849"""
