"""Staged builds, the S3 upload (against moto's S3 server on loopback) and the operator tasks
(serve, livereload, publish, gh-pages, s3-publish) run as an operator runs them."""

import contextlib
import os
import shutil
import subprocess
import sys

import boto3
import pytest
from moto.server import ThreadedMotoServer

from dalil.sitefiles.content_types import content_type
from dalil.sitefiles.headers import cache_control, header_policy, is_hidden
from dalil.sitefiles.publishing import s3_sync, site_files, staged_output
from tests import sitebuilder as sb

from .fixture import (
    HOST_FILES, INTERFACE_FILES, fetch, fixture_files, free_port, process, single, wait_for_port,
)

RECORD = ".dalil-output-files.json"  # the build's record of its files

CREDENTIALS = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
               "AWS_DEFAULT_REGION": "us-east-1"}
POLICY = header_policy({"SITEURL": sb.SITEURL})


def tree(folder):
    """``{relpath: bytes}`` of every file under ``folder``."""
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for path in sorted(folder.rglob("*")) if path.is_file()}


# -- staging -----------------------------------------------------------------------

def test_staged_output_replaces_the_output_on_success(tmp_path):
    live = tmp_path / "output"
    live.mkdir()
    (live / "old.html").write_text("old", encoding="utf-8")
    with staged_output(live) as staging:
        assert staging.parent == tmp_path and list(staging.iterdir()) == []
        (staging / "new.html").write_text("new", encoding="utf-8")
        assert tree(live) == {"old.html": b"old"}  # the live site is untouched meanwhile
    assert tree(live) == {"new.html": b"new"}
    assert [path.name for path in tmp_path.iterdir()] == ["output"]


def test_a_failed_build_leaves_the_output_as_it_was(tmp_path):
    live = tmp_path / "output"
    live.mkdir()
    (live / "index.html").write_text("live", encoding="utf-8")
    with pytest.raises(RuntimeError), staged_output(live) as staging:
        (staging / "index.html").write_text("half", encoding="utf-8")
        raise RuntimeError("the build failed")
    assert tree(live) == {"index.html": b"live"}
    assert [path.name for path in tmp_path.iterdir()] == ["output"]


def test_a_first_build_and_a_killed_builds_leftovers(tmp_path):
    stale = tmp_path / ".output.staging"
    stale.mkdir()
    (stale / "junk").write_text("junk", encoding="utf-8")
    with staged_output(tmp_path / "output") as staging:
        assert list(staging.iterdir()) == []
        (staging / "index.html").write_text("first", encoding="utf-8")
    assert tree(tmp_path) == {"output/index.html": b"first"}


# -- S3 ----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def s3_endpoint():
    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.stop()


def s3_client(endpoint):
    return boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1",
                        aws_access_key_id="testing", aws_secret_access_key="testing")


def bucket_keys(client, bucket):
    pages = client.get_paginator("list_objects_v2").paginate(Bucket=bucket)
    return sorted(item["Key"] for page in pages for item in page.get("Contents", []))


def test_s3_upload_sets_types_and_uploads_only_changes(site, s3_endpoint, tmp_path):
    output = tmp_path / "output"
    shutil.copytree(site.output, output)
    client = s3_client(s3_endpoint)
    client.create_bucket(Bucket="site")
    puts = []
    client.meta.events.register("before-call.s3.PutObject",
                                lambda params, **kwargs: puts.append(params["url_path"]))
    files = sorted(relpath for relpath in tree(output) if not is_hidden(relpath, POLICY))

    report = s3_sync(client, "site", output, POLICY)
    assert sorted(report.uploaded) == files and len(puts) == len(files) > 50
    assert bucket_keys(client, "site") == files
    for name in (*HOST_FILES, RECORD):
        assert (output / name).is_file() and name not in files
    for relpath in files:
        head = client.head_object(Bucket="site", Key=relpath)
        assert head["ContentType"] == content_type(relpath), relpath
        assert head["CacheControl"] == cache_control(relpath), relpath
    for path, media_type in INTERFACE_FILES.items():
        assert client.head_object(Bucket="site", Key=path[1:])["ContentType"] == media_type
    body = client.get_object(Bucket="site", Key="directory/listing/zaytouna/contact.vcf")["Body"]
    assert body.read() == site.read("directory/listing/zaytouna/contact.vcf", "rb")

    puts.clear()
    report = s3_sync(client, "site", output, POLICY)
    assert puts == [] and report.uploaded == [] and report.deleted == []
    assert sorted(report.unchanged) == files

    with open(output / "robots.txt", "a", encoding="utf-8") as handle:
        handle.write("# changed\n")
    os.unlink(output / "blog/tips/index.html")
    report = s3_sync(client, "site", output, POLICY)
    assert len(puts) == 1 and report.uploaded == ["robots.txt"]
    assert report.deleted == ["blog/tips/index.html"]
    assert "blog/tips/index.html" not in bucket_keys(client, "site")
    robots = client.get_object(Bucket="site", Key="robots.txt")["Body"].read()
    assert robots.endswith(b"# changed\n")


def test_s3_upload_under_a_prefix_leaves_other_keys(site, s3_endpoint):
    client = s3_client(s3_endpoint)
    client.create_bucket(Bucket="shared")
    client.put_object(Bucket="shared", Key="other/keep.txt", Body=b"keep")
    client.put_object(Bucket="shared", Key="dalil/stale.html", Body=b"stale")
    s3_sync(client, "shared", site.output, POLICY, prefix="/dalil/")
    keys = bucket_keys(client, "shared")
    assert "other/keep.txt" in keys and "dalil/stale.html" not in keys
    assert sorted(key for key in keys if key != "other/keep.txt") == [
        "dalil/" + relpath for relpath in site_files(site.output, POLICY)]


# -- the tasks, in a project of their own ------------------------------------------

def invoke(root, *arguments, env=None):
    environment = {**os.environ, "PYTHONPATH": str(sb.PACKAGE_SOURCE),
                   "SOURCE_DATE_EPOCH": sb.DEFAULT_EPOCH, "COLUMNS": "200", **(env or {})}
    return subprocess.run([sys.executable, "-m", "invoke", *arguments], cwd=root, env=environment,
                          capture_output=True, text=True, timeout=600)


def write_project(root, target=None, files=None):
    """tasks.py, pelicanconf.py and publishconf.py (both building into root/output)."""
    sb.write_site(root, files or fixture_files())
    (root / "tasks.py").write_text("from dalil.tasks import *  # noqa: F403\n", encoding="utf-8")
    publish = {"SSH_HOST": "publish.test", "SSH_TARGET_DIR": str(target or root / "target"),
               "GITHUB_PAGES_BRANCH": "gh-pages"}
    (root / "publishconf.py").write_text(sb.settings_module(root, root / "output", publish),
                                         encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = write_project(tmp_path_factory.mktemp("project"))
    result = invoke(root, "build")
    assert result.returncode == 0, result.stdout + result.stderr
    return root


def test_invoke_s3_publish(project, s3_endpoint):
    client = s3_client(s3_endpoint)
    client.create_bucket(Bucket="published")
    result = invoke(project, "s3-publish", env={
        **CREDENTIALS, "DALIL_S3_BUCKET": "published", "DALIL_S3_ENDPOINT_URL": s3_endpoint})
    assert result.returncode == 0, result.stdout + result.stderr
    files = site_files(project / "output", POLICY)
    assert f"{len(files)} uploaded, 0 unchanged, 0 deleted" in result.stdout
    assert bucket_keys(client, "published") == files
    for path, media_type in INTERFACE_FILES.items():
        assert client.head_object(Bucket="published", Key=path[1:])["ContentType"] == media_type
    assert sorted(path.name for path in project.iterdir() if path.name.startswith(".")) == []


def test_invoke_s3_publish_names_a_missing_bucket(project):
    result = invoke(project, "s3-publish", env=CREDENTIALS)
    assert result.returncode == 2
    assert "S3_BUCKET is not set" in result.stderr


def test_invoke_publish_rsyncs_the_site(project, tmp_path):
    # A stand-in for ssh: rsync's remote command runs here, on the local disk.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_ssh = bin_dir / "ssh"
    fake_ssh.write_text('#!/bin/sh\nwhile [ "$1" = "-p" ]; do shift 2; done\nshift\nexec "$@"\n',
                        encoding="utf-8")
    fake_ssh.chmod(0o755)
    target = project / "target"
    target.mkdir(exist_ok=True)
    (target / "stale.html").write_text("stale", encoding="utf-8")
    result = invoke(project, "publish",
                    env={"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"})
    assert result.returncode == 0, result.stdout + result.stderr
    published = tree(project / "output")
    assert published.pop(RECORD)  # the build's record of its files is not published
    assert tree(target) == published
    assert ".htaccess" in tree(target) and "nginx.conf.snippet" in tree(target)


def test_invoke_gh_pages_pushes_the_site(project, tmp_path):
    origin = tmp_path / "origin.git"
    git = ["git", "-c", "init.defaultBranch=main"]
    subprocess.run([*git, "init", "-q", "--bare", str(origin)], check=True)
    subprocess.run([*git, "init", "-q", str(project)], check=True)
    subprocess.run(["git", "-C", str(project), "remote", "add", "origin", str(origin)], check=True)
    identity = {"GIT_AUTHOR_NAME": "Dalil", "GIT_AUTHOR_EMAIL": "dalil@dalil.test",
                "GIT_COMMITTER_NAME": "Dalil", "GIT_COMMITTER_EMAIL": "dalil@dalil.test"}
    try:
        result = invoke(project, "gh-pages", env=identity)
        assert result.returncode == 0, result.stdout + result.stderr
        listed = subprocess.run(["git", "--git-dir", str(origin), "ls-tree", "-r", "--name-only",
                                 "gh-pages"], capture_output=True, text=True, check=True)
        names = set(listed.stdout.splitlines())
        assert RECORD in tree(project / "output")
        assert set(tree(project / "output")) - {RECORD} | {".nojekyll"} == names
        assert not (project / ".output.publish").exists()
    finally:
        shutil.rmtree(project / ".git")


# A folder's URL answers with its index.html, the home page first.
FOLDER_PAGES = {"/": "index.html", "/directory/": "directory/index.html"}
DOT_FILES = ("/.env", "/.git/config", "/directory/.env")


@contextlib.contextmanager
def dot_files(output):
    """Dot files in the output folder, for as long as the block runs."""
    written = [output / path.lstrip("/") for path in DOT_FILES]
    for path in written:
        path.parent.mkdir(exist_ok=True)
        path.write_text("secret", encoding="utf-8")
    try:
        yield
    finally:
        shutil.rmtree(output / ".git")
        for path in written:
            path.unlink(missing_ok=True)


def test_invoke_serve_sends_interface_types(project):
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(sb.PACKAGE_SOURCE), "DALIL_HOST": "127.0.0.1",
           "DALIL_PORT": str(port)}
    with process([sys.executable, "-m", "invoke", "serve"], cwd=project, env=env,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as server:
        wait_for_port(port, server)
        for path, media_type in INTERFACE_FILES.items():
            status, headers, _ = fetch(port, path)
            assert status == 200 and single(headers, "Content-Type") == media_type, path
        status, headers, body = fetch(port, "/directory/listing/zaytouna/")
        assert status == 200 and single(headers, "Cache-Control") == "no-cache"
        assert single(headers, "Content-Security-Policy").startswith("default-src 'self'")
        status, headers, body = fetch(port, "/directory/listing/no-such-listing/")
        assert status == 404 and body == (project / "output/404.html").read_bytes()
        assert fetch(port, "/nginx.conf.snippet")[0] == 404
        assert fetch(port, f"/{RECORD}")[0] == 404
        assert fetch(port, "/directory")[0] == 301
        for path, page in FOLDER_PAGES.items():
            status, _, body = fetch(port, path)
            assert status == 200 and body == (project / "output" / page).read_bytes(), path
        with dot_files(project / "output"):
            for path in DOT_FILES:
                assert fetch(port, path)[0] == 404, path


def test_invoke_livereload_sends_interface_types(project):
    port = free_port()
    env = {**os.environ, "PYTHONPATH": str(sb.PACKAGE_SOURCE), "DALIL_HOST": "127.0.0.1",
           "DALIL_PORT": str(port), "SOURCE_DATE_EPOCH": sb.DEFAULT_EPOCH}
    with process([sys.executable, "-m", "invoke", "livereload"], cwd=project, env=env,
                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) as server:
        wait_for_port(port, server, deadline=300)
        for path, media_type in INTERFACE_FILES.items():
            status, headers, _ = fetch(port, path)
            assert status == 200 and single(headers, "Content-Type") == media_type, path
        status, headers, body = fetch(port, "/directory/listing/zaytouna/")
        assert status == 200 and b"livereload.js" in body
        assert "Content-Security-Policy" not in headers  # it would block livereload's script
        status, headers, body = fetch(port, "/directory/listing/no-such-listing/")
        page = (project / "output/404.html").read_bytes()  # livereload adds its script to it
        assert status == 404 and page.partition(b"<body>")[2] in body
        assert single(headers, "Content-Type") == "text/html; charset=utf-8"
        for path, page in FOLDER_PAGES.items():
            status, _, body = fetch(port, path)
            # livereload adds its script before </head>; all that follows is the page's.
            tail = (project / "output" / page).read_bytes().partition(b"</head>")[2]
            assert status == 200 and tail and body.endswith(tail), path
        with dot_files(project / "output"):
            for path in DOT_FILES:
                assert fetch(port, path)[0] == 404, path


def test_a_failed_publishing_build_leaves_the_live_site(tmp_path):
    root = write_project(tmp_path / "project")
    assert invoke(root, "preview").returncode == 0
    before = tree(root / "output")
    (root / "content/listings/broken.md").write_text(
        sb.metadata_file("x", Title="خطأ", Slug="broken", Category="nowhere", City="casablanca"),
        encoding="utf-8")
    result = invoke(root, "preview")
    assert result.returncode != 0
    assert "names unknown category 'nowhere'" in result.stdout + result.stderr
    assert tree(root / "output") == before
    assert not (root / ".output.staging").exists()
