"""Publishing helpers: staged builds, and an upload to any S3-compatible store.

A build for publishing goes to a fresh staging folder beside the output
folder; only when it succeeded does the staging folder replace the output
(two renames on one file system), so a failed build never leaves half a site.
"""

import base64
import contextlib
import hashlib
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from dalil.core.record import is_record

from .headers import HeaderPolicy, is_hidden, response_headers


def _sibling(path, suffix):
    return path.with_name(f".{path.name}.{suffix}")


@contextlib.contextmanager
def staged_output(output_path):
    """Yield an empty staging folder; on success it replaces ``output_path``.

    On any exception the staging folder is removed and the output is left as it was.
    """
    output = Path(output_path).resolve()
    staging = _sibling(output, "staging")
    if staging.exists():
        shutil.rmtree(staging)  # left by a build that was killed
    staging.mkdir(parents=True)
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    replace_folder(staging, output)


def replace_folder(new, live):
    """Put the folder ``new`` where ``live`` is; ``live``'s old content is removed."""
    new, live = Path(new), Path(live)
    old = _sibling(live, "old")
    if old.exists():
        shutil.rmtree(old)
    if live.exists():
        os.rename(live, old)
    try:
        os.rename(new, live)
    except BaseException:
        if old.exists():
            os.rename(old, live)
        raise
    shutil.rmtree(old, ignore_errors=True)


@contextlib.contextmanager
def without_record(output_path):
    """Yield a folder beside ``output_path`` that holds its files but the build's record
    of them (``is_record``, never published), as hard links; removed after."""
    output = Path(output_path).resolve()
    copy = _sibling(output, "publish")
    if copy.exists():
        shutil.rmtree(copy)  # left by a publish that was killed

    def link(source, target):
        try:
            os.link(source, target)
        except OSError:  # a file system without hard links
            shutil.copy2(source, target)

    try:
        shutil.copytree(output, copy, symlinks=True, copy_function=link,
                        ignore=lambda folder, names: set(filter(is_record, names))
                        if Path(folder) == output else ())
        yield copy
    finally:
        shutil.rmtree(copy, ignore_errors=True)


# -- S3 -------------------------------------------------------------------------

@dataclass
class SyncReport:
    uploaded: list = field(default_factory=list)
    unchanged: list = field(default_factory=list)
    deleted: list = field(default_factory=list)


def site_files(output_path, policy):
    """Every file to publish, as sorted paths relative to the output folder."""
    root = Path(output_path)
    relpaths = (path.relative_to(root).as_posix() for path in root.rglob("*") if path.is_file())
    return sorted(relpath for relpath in relpaths if not is_hidden(relpath, policy))


def _remote_etags(client, bucket, prefix):
    etags = {}
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        for item in page.get("Contents", []):
            etags[item["Key"]] = item["ETag"].strip('"')
    return etags


def s3_sync(client, bucket, output_path, policy=HeaderPolicy(), prefix="", delete=True,
            force=False):
    """Make ``bucket`` (under ``prefix``) hold exactly the site in ``output_path``.

    A file is uploaded only when its MD5 differs from the object's ETag (single-part
    uploads, so the ETag is the MD5), with the Content-Type and Cache-Control that
    ``response_headers`` gives it; ``force`` uploads everything (after a change of
    the header rules). Objects that the site no longer has are deleted.
    The host files (nginx snippet, ``_headers``, ``.htaccess``) are not uploaded:
    S3 cannot apply them.
    """
    prefix = prefix.strip("/") + "/" if prefix.strip("/") else ""
    remote = _remote_etags(client, bucket, prefix)
    report = SyncReport()
    keys = set()
    for relpath in site_files(output_path, policy):
        key = prefix + relpath
        keys.add(key)
        data = (Path(output_path) / relpath).read_bytes()
        digest = hashlib.md5(data, usedforsecurity=False)
        if not force and remote.get(key) == digest.hexdigest():
            report.unchanged.append(key)
            continue
        headers = response_headers(relpath, policy)
        client.put_object(
            Bucket=bucket, Key=key, Body=data,
            ContentMD5=base64.b64encode(digest.digest()).decode("ascii"),
            ContentType=headers["Content-Type"], CacheControl=headers["Cache-Control"],
        )
        report.uploaded.append(key)
    if delete:
        stale = sorted(set(remote) - keys)
        for start in range(0, len(stale), 1000):  # the API's limit per request
            batch = stale[start:start + 1000]
            client.delete_objects(Bucket=bucket, Delete={
                "Objects": [{"Key": key} for key in batch], "Quiet": True})
        report.deleted = stale
    return report


def s3_client(endpoint_url=None, region=None):
    """A boto3 S3 client; credentials come from boto3's usual sources (environment,
    ``~/.aws``, instance role)."""
    import boto3

    return boto3.client("s3", endpoint_url=endpoint_url or None, region_name=region or None)
