"""tresham.io"""
