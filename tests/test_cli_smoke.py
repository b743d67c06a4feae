import json

from dpverify.reports.cli import main


def test_eval_json_gaussian(capsys):
    assert main(["eval", "BW-ANALYTIC-GAUSS.delta", "sigma=1", "eps=1", "--digits", "30",
                 "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["value"] == "0.126936737506643945800829624758"
