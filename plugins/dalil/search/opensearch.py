"""The OpenSearch 1.1 description: lets a browser add the site's search as a search engine."""

import mimetypes
import xml.etree.ElementTree as ET

from dalil.core.urls import absolute_url

NAMESPACE = "http://a9.com/-/spec/opensearch/1.1/"
SHORT_NAME_MAX = 16  # OpenSearch 1.1: "16 or fewer characters"
DESCRIPTION_MAX = 1024


def _element(parent, name, text=None, **attributes):
    element = ET.SubElement(parent, name, attributes)
    element.text = text
    return element


def opensearch_xml(*, siteurl, short_name, description, page_url, self_url, image, image_size,
                   language, example):
    """The description document as UTF-8 bytes; ``page_url`` is the search page's URL,
    in ``language``; ``example`` is a query in it."""
    # ElementTree's default_namespace refuses unqualified attributes: declare it directly.
    root = ET.Element("OpenSearchDescription", xmlns=NAMESPACE)
    _element(root, "ShortName", short_name[:SHORT_NAME_MAX])
    _element(root, "Description", description[:DESCRIPTION_MAX])
    _element(root, "InputEncoding", "UTF-8")
    _element(root, "OutputEncoding", "UTF-8")
    _element(root, "Language", language)
    if image:
        image_type = mimetypes.guess_type(image)[0] or "image/png"
        _element(root, "Image", absolute_url(siteurl, image), width=str(image_size),
                 height=str(image_size), type=image_type)
    search_url = absolute_url(siteurl, page_url)
    _element(root, "Url", type="text/html", method="get",
             template=search_url + "?q={searchTerms}")
    _element(root, "Url", type="application/opensearchdescription+xml", rel="self",
             template=absolute_url(siteurl, self_url))
    _element(root, "Query", role="example", searchTerms=example)
    _element(root, "SyndicationRight", "open")
    _element(root, "AdultContent", "false")
    ET.indent(root)
    return ET.tostring(root, encoding="UTF-8", xml_declaration=True) + b"\n"
