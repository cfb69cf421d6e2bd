"""Test strength: does each changed test fail without the production change it comes with?"""
