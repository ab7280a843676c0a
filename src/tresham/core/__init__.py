"""tresham.core"""
