#!/usr/bin/env bash
# Makes a release's commit and points its tags at it: the last step of the release workflow, after
# the image was pushed.
#
# Usage: scripts/release/tag-release.sh TAG SOURCE_SHA IMAGE DIGEST
#   TAG         the pushed version tag, v1.2.3
#   SOURCE_SHA  the commit the tag named when the workflow started (a source commit of main)
#   IMAGE       ghcr.io/owner/repo, lower case
#   DIGEST      the pushed image's digest, sha256:HEX
# Runs in a clone of the repository whose remote `origin` is where the tags go, with a git
# identity configured and a clean work tree.
#
# What it does:
#   - checks that TAG still names SOURCE_SHA on origin (nothing moved it since the workflow
#     started), then makes the release commit on top of SOURCE_SHA: action.yml's runs.image
#     becomes docker://IMAGE:VERSION@DIGEST (pin-image.py), nothing else changes. The main
#     branch never gets this commit: it keeps `image: Dockerfile`, built from source;
#   - points TAG at the release commit, and the major tag (v1) too when TAG is the highest
#     v1.x.y on origin (a fix to an older minor version leaves v1 where it is);
#   - pushes both in one atomic push, each with a lease on the value it had on origin, so a tag
#     that someone else moved meanwhile is never overwritten.
# The version tag moves once, here, from the source commit to its release commit, before the
# release is published; after that it never moves. The major tag moves with every release.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"

die() {
    echo "tag-release.sh: $*" >&2
    exit 2
}

(($# == 4)) || die "usage: tag-release.sh TAG SOURCE_SHA IMAGE DIGEST"
tag="$1" source_sha="$2" image="$3" digest="$4"
[[ "$tag" =~ ^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$ ]] || die "$tag is not a release tag (v1.2.3)"
[[ "$source_sha" =~ ^[0-9a-f]{40}$ ]] || die "SOURCE_SHA must be a full commit SHA, not '$source_sha'"
version="${tag#v}"
major="${tag%%.*}"

# The remote's value of a tag: the object it names (an annotated tag's own object, or a commit)
# and the commit that object peels to; empty when the tag does not exist.
remote_object() {
    git ls-remote origin "refs/tags/$1" | awk '{ print $1 }'
}
remote_commit() {
    local peeled
    peeled="$(git ls-remote origin "refs/tags/$1^{}" | awk '{ print $1 }')"
    if [[ -n "$peeled" ]]; then echo "$peeled"; else remote_object "$1"; fi
}

tag_object="$(remote_object "$tag")"
[[ -n "$tag_object" ]] || die "origin has no tag $tag"
[[ "$(remote_commit "$tag")" == "$source_sha" ]] \
    || die "$tag no longer names $source_sha on origin: released already, or moved since the release started"
major_object="$(remote_object "$major")"

[[ -z "$(git status --porcelain)" ]] || die "the work tree is not clean"
git switch --quiet --detach "$source_sha"
python3 "$here/pin-image.py" --image "$image" --version "$version" --digest "$digest" action.yml >/dev/null
git commit --quiet -m "Release $tag: the action runs $image:$version@$digest" -- action.yml
release_sha="$(git rev-parse HEAD)"
git tag --force --annotate -m "$tag" "$tag" "$release_sha" >/dev/null

# The highest v<major>.x.y on origin, this tag included.
highest="$(
    {
        git ls-remote --tags --refs origin "refs/tags/$major.*" | awk '{ sub("refs/tags/", "", $2); print $2 }'
        echo "$tag"
    } | grep -E '^v(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)$' | sort -V | tail -n 1
)"
refs=("refs/tags/$tag")
leases=("--force-with-lease=refs/tags/$tag:$tag_object")
if [[ "$highest" == "$tag" ]]; then
    git tag --force --annotate -m "$tag" "$major" "$release_sha" >/dev/null
    refs+=("refs/tags/$major")
    leases+=("--force-with-lease=refs/tags/$major:$major_object")
else
    echo "tag-release.sh: $major stays at $highest, a higher release than $tag"
fi
git push --quiet --atomic origin "${leases[@]}" "${refs[@]}"
echo "tag-release.sh: ${refs[*]#refs/tags/} -> $release_sha ($image:$version@$digest)"
