"""Shared building blocks of the Dalil plugins."""
