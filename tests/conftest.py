"""Shared by every test folder: this folder is on sys.path (tests/rawpeer.py)."""
