# Our ``avro`` is avro-py (Bengali phonetic typing), not Apache Avro: the contributed
# hook-avro.py would look for Apache Avro's VERSION.txt and schema files and fail.
from PyInstaller.utils.hooks import collect_submodules

hiddenimports = collect_submodules("avro")
