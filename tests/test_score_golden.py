"""Golden tests of the MCR scorer: hand-written hands with their fans and totals.

Every row is a readable hand (``mjstats.hand`` grammar), its total and its
fans (Chinese names, counts). Sources: the verified examples of
``shared/reference/mcr-reference-behaviour.md`` section 3 (T01...T64, the tie),
the hands quoted from GitHub issue threads there, and hands written for each
fan of the rule texts (``shared/rules/mcr-*.txt``) and its 不计 exclusions.
Rows are grouped by their biggest fan. Wind context defaults to East seat and
East round; a discard win unless ``self-drawn``.

Coverage checked here: every fan appears in at least two rows; every
exclusion of the ruleset data (``FanDef.excludes``) is tested on every row
where the excluding fan appears (the excluded fan must be absent).
"""

from __future__ import annotations

import pytest

import mjstats
from mjstats.rulesets.mcr import FANS, RULESET

GOLDEN = [
    # 大四喜 Big Four Winds
    ("EEESSSWWWNNN1m+1m", 191, {"大四喜": 1, "四暗刻": 1, "混幺九": 1, "混一色": 1, "单钓将": 1}),
    ("[111z][222z][333z]44z55p+4z", 94, {"大四喜": 1, "混一色": 1}),
    # 大三元 Big Three Dragons
    (
        "CCCFFFPPP123m9s+9s",
        112,
        {"大三元": 1, "三暗刻": 1, "全带幺": 1, "门前清": 1, "缺一门": 1, "单钓将": 1},
    ),
    (
        "[111z][555z][777z]666z2z+2z",
        157,
        {"大三元": 1, "字一色": 1, "圈风刻": 1, "门风刻": 1, "单钓将": 1},
    ),
    (
        "[777z][666z]555z234p5s+5s self-drawn",
        91,
        {"大三元": 1, "缺一门": 1, "单钓将": 1, "自摸": 1},
    ),
    # 绿一色 All Green
    ("22334466688s66z+6z", 93, {"绿一色": 1, "箭刻": 1, "门前清": 1, "一般高": 1}),
    ("[234s][234s]234s888s6s+6s", 138, {"绿一色": 1, "清一色": 1, "一色三同顺": 1, "断幺": 1}),
    # 九莲宝灯 Nine Gates
    # T33 nine-gates extras
    ("1112345678999m+1m", 106, {"九莲宝灯": 1, "清龙": 1, "四归一": 1}),
    ("1112345678999p+5p self-drawn", 92, {"九莲宝灯": 1, "双暗刻": 1, "幺九刻": 1, "自摸": 1}),
    # 四杠 Four Kongs
    ("[1111m][2222p][3333s]{4444s}5p+5p", 98, {"四杠": 1, "三色三节高": 1, "幺九刻": 1, "无字": 1}),
    (
        "[1111z]{2222z}[3333z][5555z]1s+1s self-drawn",
        145,
        {
            "四杠": 1,
            "混幺九": 1,
            "三风刻": 1,
            "混一色": 1,
            "箭刻": 1,
            "圈风刻": 1,
            "门风刻": 1,
            "自摸": 1,
        },
    ),
    # 连七对 Seven Shifted Pairs
    # T21
    ("2233445566778s+8s", 90, {"连七对": 1, "断幺": 1}),
    ("3344556677889p+9p self-drawn", 89, {"连七对": 1, "自摸": 1}),
    # 十三幺 Thirteen Orphans
    ("19m19p19s1234567z+1z self-drawn last-of-wall", 96, {"十三幺": 1, "妙手回春": 1}),
    ("19m19p19s1234567z+7z", 88, {"十三幺": 1}),
    # 清幺九 All Terminals
    # T22 清幺九 drops 双同刻
    ("111999m111p999s1s+1s", 129, {"清幺九": 1, "四暗刻": 1, "单钓将": 1}),
    # T23 清幺九 keeps 三同刻
    ("111m111p111s999m9s+9s", 145, {"清幺九": 1, "四暗刻": 1, "三同刻": 1, "单钓将": 1}),
    # 小四喜 Little Four Winds
    (
        "[111z][222z]333z44z12m+3m",
        79,
        {"小四喜": 1, "混一色": 1, "全带幺": 1, "圈风刻": 1, "门风刻": 1, "边张": 1},
    ),
    (
        "[444z]123m1112223z+3z seat=N",
        81,
        {"小四喜": 1, "混一色": 1, "全带幺": 1, "圈风刻": 1, "门风刻": 1, "双暗刻": 1, "单钓将": 1},
    ),
    (
        "[444z]78s11122233z+9s seat=N round=S",
        80,
        {"小四喜": 1, "混一色": 1, "全带幺": 1, "圈风刻": 1, "门风刻": 1, "双暗刻": 1},
    ),
    (
        "[777z]1112223334z+4z seat=N round=W",
        149,
        {"小四喜": 1, "字一色": 1, "三暗刻": 1, "箭刻": 1, "圈风刻": 1, "单钓将": 1},
    ),
    # 小三元 Little Three Dragons
    (
        "123456p5666777z+5z",
        76,
        {"小三元": 1, "混一色": 1, "门前清": 1, "双暗刻": 1, "连六": 1, "单钓将": 1},
    ),
    (
        "555z666z77z111z11m+1m",
        124,
        {"小三元": 1, "混幺九": 1, "三暗刻": 1, "混一色": 1, "圈风刻": 1, "门风刻": 1, "门前清": 1},
    ),
    ("[555z]666z7z123p456p+7z", 72, {"小三元": 1, "混一色": 1, "连六": 1, "单钓将": 1}),
    # 字一色 All Honors
    (
        "1112223555666z+3z self-drawn",
        140,
        {"字一色": 1, "四暗刻": 1, "双箭刻": 1, "圈风刻": 1, "门风刻": 1, "单钓将": 1, "自摸": 1},
    ),
    (
        "111z222z333z55z66z+5z",
        100,
        {"字一色": 1, "三暗刻": 1, "三风刻": 1, "箭刻": 1, "圈风刻": 1, "门风刻": 1, "门前清": 1},
    ),
    (
        "111z222z333z55z66z+6z",
        100,
        {"字一色": 1, "三暗刻": 1, "三风刻": 1, "箭刻": 1, "圈风刻": 1, "门风刻": 1, "门前清": 1},
    ),
    # 四暗刻 Four Concealed Pungs
    (
        "111555m222p3338s+8s self-drawn",
        76,
        {"四暗刻": 1, "三色三节高": 1, "幺九刻": 1, "无字": 1, "单钓将": 1, "自摸": 1},
    ),
    (
        "111m222m333m444m5p+5p",
        116,
        {"四暗刻": 1, "一色四节高": 1, "幺九刻": 1, "缺一门": 1, "无字": 1, "单钓将": 1},
    ),
    (
        "111m222p333s444p5s+5s self-drawn",
        75,
        {"四暗刻": 1, "三色三节高": 1, "幺九刻": 1, "无字": 1, "自摸": 1},
    ),
    (
        "111m999s111z222z5z+5z",
        102,
        {"四暗刻": 1, "混幺九": 1, "圈风刻": 1, "门风刻": 1, "缺一门": 1, "单钓将": 1},
    ),
    ("2224446m666p888s+6m self-drawn", 89, {"四暗刻": 1, "全双刻": 1, "自摸": 1}),
    (
        "{1111m}555m222p3338s+8s",
        77,
        {"四暗刻": 1, "三色三节高": 1, "暗杠": 1, "幺九刻": 1, "无字": 1, "单钓将": 1},
    ),
    # 一色双龙会 Pure Terminal Chows
    # T39 regular reading beats 七对
    ("1122335577889m+9m", 66, {"一色双龙会": 1, "门前清": 1}),
    ("123m123m789m789m5m+5m", 67, {"一色双龙会": 1, "门前清": 1, "单钓将": 1}),
    ("[123p][123p][789p]789p5p+5p", 65, {"一色双龙会": 1, "单钓将": 1}),
    # 一色四同顺 Quadruple Chow
    # T47 一色四同顺: no 四归一
    ("111122223333s4s+4s", 88, {"一色四同顺": 1, "清一色": 1, "小于五": 1, "门前清": 1, "平和": 1}),
    (
        "[234m][234m][234m]23m55p+4m",
        57,
        {"一色四同顺": 1, "和绝张": 1, "平和": 1, "断幺": 1, "缺一门": 1},
    ),
    # 一色四节高 Four Pure Shifted Pungs
    (
        "[555s]2m666777888s+2m",
        68,
        {"一色四节高": 1, "三暗刻": 1, "断幺": 1, "缺一门": 1, "单钓将": 1},
    ),
    # 一色四步高 Four Pure Shifted Chows
    (
        "123m234m345m456m9s+9s",
        38,
        {"一色四步高": 1, "门前清": 1, "平和": 1, "缺一门": 1, "单钓将": 1},
    ),
    ("[123p]345p567p78p11z+9p", 38, {"一色四步高": 1, "混一色": 1}),
    # 三杠 Three Kongs
    (
        "[1111m][2222m][3333m]456p5s+5s",
        59,
        {"三杠": 1, "一色三节高": 1, "幺九刻": 1, "无字": 1, "单钓将": 1},
    ),
    (
        "[EEEE][SSSS]{WWWW}11p44s+4s",
        55,
        {"三杠": 1, "三风刻": 1, "碰碰和": 1, "圈风刻": 1, "门风刻": 1, "缺一门": 1},
    ),
    ("{3333s}{7777s}[4444p]56m99p+4m", 35, {"三杠": 1, "双暗刻": 1, "无字": 1}),
    # 混幺九 All Terminals and Honors
    ("1199m1199p1199s1z+1z", 56, {"混幺九": 1, "七对": 1}),
    ("11m99p11s99s11z222z+2z", 58, {"混幺九": 1, "七对": 1, "四归一": 1}),
    ("[111m][999p]11z111s99s+9s", 36, {"混幺九": 1, "双同刻": 2}),
    # 七对 Seven Pairs
    # T20 four of a kind in 七对
    ("1111m3355p7799s1z+1z", 26, {"七对": 1, "四归一": 1}),
    # T64 (discard): 七对 never gets 门前清/单钓
    ("1133m5577p99s115z+5z", 30, {"七对": 1, "五门齐": 1}),
    ("2244668s22m44p88p+8s", 26, {"七对": 1, "断幺": 1}),
    ("244m2244p446688s+2m self-drawn", 27, {"七对": 1, "断幺": 1, "自摸": 1}),
    # 七星不靠 Greater Honors and Knitted Tiles
    ("14m258p36s123456z+7z", 24, {"七星不靠": 1}),
    ("14m258p36s123456z+7z self-drawn last-of-kind", 29, {"七星不靠": 1, "和绝张": 1, "自摸": 1}),
    # 全双刻 All Even Pungs
    ("222m444p666s88s44m+4m", 44, {"全双刻": 1, "三暗刻": 1, "门前清": 1, "双同刻": 1}),
    ("[222m][444m]666m888m2p+2p", 28, {"全双刻": 1, "双暗刻": 1, "缺一门": 1, "单钓将": 1}),
    ("[222m][444p]4m666888s+4m", 27, {"全双刻": 1, "双暗刻": 1, "单钓将": 1}),
    # 清一色 Full Flush
    ("1112346778999m+5m", 28, {"清一色": 1, "门前清": 1, "连六": 1, "幺九刻": 1}),
    ("[123s]2345678999s+2s", 26, {"清一色": 1, "连六": 1, "幺九刻": 1}),
    # 一色三同顺 Pure Triple Chow
    # tie: 一色三节高 reading also 33; the 一色三同顺 list wins
    (
        "456666777p88p77m+8p",
        33,
        {"一色三同顺": 1, "门前清": 1, "平和": 1, "四归一": 1, "断幺": 1, "缺一门": 1},
    ),
    ("[123p]123p123p55s66s+5s", 33, {"一色三同顺": 1, "推不倒": 1, "无字": 1}),
    ("[567m]556677m9p123s+9p", 27, {"一色三同顺": 1, "平和": 1, "单钓将": 1}),
    # 一色三节高 Pure Shifted Pungs
    (
        "123m123m123m456p9s+9s",
        45,
        {"一色三节高": 1, "三暗刻": 1, "门前清": 1, "幺九刻": 1, "无字": 1, "单钓将": 1},
    ),
    # T08 4th pung combines once; 3p pung counts as melded
    (
        "222333444m33p55s+3p",
        52,
        {"一色三节高": 1, "三暗刻": 1, "碰碰和": 1, "门前清": 1, "双同刻": 1, "断幺": 1},
    ),
    (
        "222333444m567p1z+1z",
        44,
        {"一色三节高": 1, "三暗刻": 1, "门前清": 1, "缺一门": 1, "单钓将": 1},
    ),
    (
        "22233444p777s11z+3p",
        49,
        {"一色三节高": 1, "三暗刻": 1, "碰碰和": 1, "门前清": 1, "缺一门": 1},
    ),
    (
        "[666s]555s777s22m88s+2m",
        35,
        {"一色三节高": 1, "碰碰和": 1, "双暗刻": 1, "断幺": 1, "缺一门": 1},
    ),
    (
        "[777s]5m123p888999s+5m",
        29,
        {"一色三节高": 1, "双暗刻": 1, "幺九刻": 1, "无字": 1, "单钓将": 1},
    ),
    # 全大 Upper Tiles
    (
        "777789m888p8999s+8s",
        53,
        {"全大": 1, "三暗刻": 1, "三色三节高": 1, "门前清": 1, "四归一": 1, "幺九刻": 1},
    ),
    ("[789s]7899m777789p+9m", 34, {"全大": 1, "三色三同顺": 1, "四归一": 1}),
    # 全中 Middle Tiles
    ("455556m4456p456s+4p", 36, {"全中": 1, "三色三同顺": 1, "门前清": 1, "四归一": 1}),
    ("[444m]456m555p5666s+5s", 36, {"全中": 1, "三色三节高": 1, "四归一": 1, "双暗刻": 1}),
    # 全小 Lower Tiles
    (
        "111123m1223p123s+2p",
        38,
        {"全小": 1, "三色三同顺": 1, "门前清": 1, "四归一": 1, "幺九刻": 1, "坎张": 1},
    ),
    ("[333m]123m222p1123s+1s", 27, {"全小": 1, "四归一": 1, "喜相逢": 1}),
    # 清龙 Pure Straight
    # T04 3-chow fan + at most 1 extra
    ("123456789m12p99s+3p", 22, {"清龙": 1, "门前清": 1, "平和": 1, "喜相逢": 1, "边张": 1}),
    ("123m456m789m789p5s+5s", 22, {"清龙": 1, "门前清": 1, "平和": 1, "喜相逢": 1, "单钓将": 1}),
    ("123p456p789p11s22s+2s", 20, {"清龙": 1, "门前清": 1, "缺一门": 1, "无字": 1}),
    ("[789p]123p456p456s5m+5m", 20, {"清龙": 1, "平和": 1, "喜相逢": 1, "单钓将": 1}),
    # 三色双龙会 Three-Suited Terminal Chows
    # zheng-fan/GB-Mahjong #5
    ("[123p]55m12379s789p+8s", 17, {"三色双龙会": 1, "坎张": 1}),
    ("123m789m123s789s5p+5p", 19, {"三色双龙会": 1, "门前清": 1, "单钓将": 1}),
    ("[123s][789s][123p]789p5m+5m", 17, {"三色双龙会": 1, "单钓将": 1}),
    # 一色三步高 Pure Shifted Chows
    (
        "123m234m345m66s99s+9s",
        21,
        {"一色三步高": 1, "门前清": 1, "幺九刻": 1, "缺一门": 1, "无字": 1},
    ),
    ("[345p]567p789p11z22z+2z", 23, {"一色三步高": 1, "混一色": 1, "幺九刻": 1}),
    # 全带五 All Five
    (
        "345555m4556p567s+5p",
        27,
        {"全带五": 1, "三色三步高": 1, "门前清": 1, "四归一": 1, "坎张": 1},
    ),
    ("[555s]4556m345567p+5m", 17, {"全带五": 1, "坎张": 1}),
    # 三同刻 Triple Pung
    (
        "123555m555p5559s+9s self-drawn",
        38,
        {"三同刻": 1, "三暗刻": 1, "不求人": 1, "无字": 1, "单钓将": 1},
    ),
    (
        "[999m]999p123999s1z+1z",
        26,
        {"三同刻": 1, "全带幺": 1, "双暗刻": 1, "幺九刻": 3, "单钓将": 1},
    ),
    # 三暗刻 Three Concealed Pungs
    # T25
    ("111m222m333p44s55s+5s", 26, {"三暗刻": 1, "碰碰和": 1, "门前清": 1, "幺九刻": 1, "无字": 1}),
    (
        "111m222p333s44s55s+5s",
        34,
        {"三暗刻": 1, "三色三节高": 1, "碰碰和": 1, "门前清": 1, "幺九刻": 1, "无字": 1},
    ),
    # T34 三风刻 keeps 圈/门风刻
    (
        "111z222z333z123m9m+9m",
        45,
        {
            "三暗刻": 1,
            "三风刻": 1,
            "混一色": 1,
            "全带幺": 1,
            "圈风刻": 1,
            "门风刻": 1,
            "门前清": 1,
            "单钓将": 1,
        },
    ),
    ("333m444789p555s1z+1z", 27, {"三暗刻": 1, "三色三节高": 1, "门前清": 1, "单钓将": 1}),
    (
        "4567m111222333z+7m seat=W round=S",
        40,
        {"三暗刻": 1, "三风刻": 1, "混一色": 1, "圈风刻": 1, "门风刻": 1, "门前清": 1},
    ),
    # 全不靠 Lesser Honors and Knitted Tiles
    # T30-like
    ("147m258p369s1234z+5z", 24, {"全不靠": 1, "组合龙": 1}),
    ("147m258s369p1234z+5z flowers=0xff", 32, {"全不靠": 1, "组合龙": 1, "花牌": 8}),
    ("14m258p369s12345z+6z", 12, {"全不靠": 1}),
    ("14m258p369s12345z+6z self-drawn last-of-wall", 20, {"全不靠": 1, "妙手回春": 1}),
    # 组合龙 Knitted Straight
    # issue #9: 组合龙 + 单钓将
    ("1147s123369m258p+1s", 17, {"组合龙": 1, "门前清": 1, "平和": 1, "单钓将": 1}),
    # T40 / issue #9: 组合龙 + 边张
    ("12369m258p13347s+3m", 17, {"组合龙": 1, "门前清": 1, "平和": 1, "边张": 1}),
    # issue #9: 组合龙 + 坎张
    ("13347s23469m258p+3m", 17, {"组合龙": 1, "门前清": 1, "平和": 1, "坎张": 1}),
    ("147m258p369s234s5m+5m", 17, {"组合龙": 1, "门前清": 1, "平和": 1, "单钓将": 1}),
    # issue #9: 组合龙 + 坎张 + 四归一
    ("147s2333469m258p+3m", 19, {"组合龙": 1, "门前清": 1, "平和": 1, "四归一": 1, "坎张": 1}),
    ("23s147m258p369s55z+1s", 14, {"组合龙": 1, "门前清": 1}),
    ("[111m]147m258p369s1z+1z", 16, {"组合龙": 1, "四归一": 1, "幺九刻": 1, "单钓将": 1}),
    ("[222z]1457m258p369s+5m self-drawn", 15, {"组合龙": 1, "幺九刻": 1, "单钓将": 1, "自摸": 1}),
    (
        "[555z]147m258p369s1z+1z self-drawn",
        22,
        {"组合龙": 1, "五门齐": 1, "箭刻": 1, "单钓将": 1, "自摸": 1},
    ),
    # zheng-fan/GB-Mahjong #7: 组合龙, no 无番和
    ("[678s]147m369s25p22z+8p", 12, {"组合龙": 1}),
    # issue #10: 组合龙 + 四归一 with a melded pung
    ("[999p]147m258s369p5z+5z", 16, {"组合龙": 1, "四归一": 1, "幺九刻": 1, "单钓将": 1}),
    # 大于五 Upper Four
    ("678999m789p6667s+7s", 17, {"大于五": 1, "门前清": 1, "双暗刻": 1, "幺九刻": 1}),
    ("[666m]789m6789p789s+9p", 13, {"大于五": 1, "喜相逢": 1}),
    # 小于五 Lower Four
    ("111123m234p3444s+3s", 19, {"小于五": 1, "门前清": 1, "四归一": 1, "双暗刻": 1, "幺九刻": 1}),
    ("[444p]1234m123p234s+1m", 13, {"小于五": 1, "喜相逢": 1}),
    # 三风刻 Big Three Winds
    ("[111z][333z]5678p444z+8p", 22, {"三风刻": 1, "混一色": 1, "圈风刻": 1, "门风刻": 1}),
    # 花龙 Mixed Straight
    # T07 四归一
    ("1111m23m456p78s99s+9s", 14, {"花龙": 1, "门前清": 1, "四归一": 1, "幺九刻": 1, "无字": 1}),
    ("12234m456p55789s+3m", 13, {"花龙": 1, "门前清": 1, "平和": 1, "边张": 1}),
    (
        "12234m456p55789s+3m self-drawn last-of-wall",
        23,
        {"花龙": 1, "妙手回春": 1, "不求人": 1, "平和": 1, "边张": 1},
    ),
    (
        "12345556m789p12s+3s last-of-kind",
        18,
        {"花龙": 1, "和绝张": 1, "门前清": 1, "平和": 1, "喜相逢": 1, "边张": 1},
    ),
    (
        "1234556m789p123s+5m self-drawn",
        16,
        {"花龙": 1, "不求人": 1, "平和": 1, "喜相逢": 1, "坎张": 1},
    ),
    ("1239m456p789s222z+9m", 12, {"花龙": 1, "门前清": 1, "幺九刻": 1, "单钓将": 1}),
    ("1239m456p789s222z+9m round=S", 13, {"花龙": 1, "圈风刻": 1, "门前清": 1, "单钓将": 1}),
    ("1239m456p789s222z+9m seat=S", 13, {"花龙": 1, "门风刻": 1, "门前清": 1, "单钓将": 1}),
    # T09 non-seat wind -> 幺九刻
    ("222z123m456p789s9m+9m", 12, {"花龙": 1, "门前清": 1, "幺九刻": 1, "单钓将": 1}),
    (
        "[111z]123m2246p789s+5p kong-win",
        21,
        {"花龙": 1, "抢杠和": 1, "圈风刻": 1, "门风刻": 1, "坎张": 1},
    ),
    ("[123p]7899m456s111z+9m", 12, {"花龙": 1, "圈风刻": 1, "门风刻": 1}),
    (
        "[123p]7899m456s111z+9m last-of-wall",
        20,
        {"花龙": 1, "海底捞月": 1, "圈风刻": 1, "门风刻": 1},
    ),
    (
        "{5555z}123m456p789s1z+1z self-drawn kong-win last-of-wall",
        39,
        {
            "花龙": 1,
            "妙手回春": 1,
            "杠上开花": 1,
            "五门齐": 1,
            "不求人": 1,
            "箭刻": 1,
            "暗杠": 1,
            "单钓将": 1,
        },
    ),
    ("[123p]34789m45556s+2m last-of-wall", 18, {"花龙": 1, "海底捞月": 1, "平和": 1}),
    # 推不倒 Reversible Tiles
    ("123345888p456s5z+5z", 11, {"推不倒": 1, "门前清": 1, "单钓将": 1}),
    ("22334455p666s88s+8s", 13, {"推不倒": 1, "门前清": 1, "断幺": 1, "一般高": 1}),
    ("[888p]123p345p456s9s+9s", 10, {"推不倒": 1, "无字": 1, "单钓将": 1}),
    # 三色三同顺 Mixed Triple Chow
    # T05 extra chow prefers 一般高
    (
        "123123m123s123p9p+9p",
        18,
        {"三色三同顺": 1, "全带幺": 1, "门前清": 1, "平和": 1, "一般高": 1, "单钓将": 1},
    ),
    ("[234m]678m234p2349s+9s", 11, {"三色三同顺": 1, "平和": 1, "单钓将": 1}),
    # 无番和 Chicken Hand
    ("[123m][567p]45789s11z+3s", 8, {"无番和": 1}),
    # T18 无番和 + flowers
    ("[234m][678s][555p]23s11z+1s flowers=2", 10, {"无番和": 1, "花牌": 2}),
    ("[234p][678m]34578s55z+9s", 8, {"无番和": 1}),
    # 杠上开花 Out with Replacement Tile
    (
        "[1111s]234789m456p6s+6s self-drawn kong-win",
        12,
        {"杠上开花": 1, "幺九刻": 1, "明杠": 1, "无字": 1, "单钓将": 1},
    ),
    # 抢杠和 Robbing The Kong
    # T17 抢杠和 removes 和绝张
    (
        "12m456p789p111s99s+3m last-of-kind kong-win",
        14,
        {"抢杠和": 1, "门前清": 1, "连六": 1, "幺九刻": 1, "无字": 1, "边张": 1},
    ),
    ("234678m34p45699s+5p kong-win", 18, {"抢杠和": 1, "三色三步高": 1, "门前清": 1, "平和": 1}),
    # 三色三步高 Mixed Shifted Chows
    ("[678p]4567m123789s+4m", 9, {"三色三步高": 1, "平和": 1, "老少副": 1}),
    # 全求人 Melded Hand
    ("[123m][555z][789p][111s]5m+5m", 9, {"全求人": 1, "箭刻": 1, "幺九刻": 1}),
    # T36-like: 全求人, no 单钓
    ("[123m][555z][789p][111s]9m+9m", 13, {"全求人": 1, "全带幺": 1, "箭刻": 1, "幺九刻": 1}),
    # 双暗杠 Two Concealed Kongs
    # T27 双暗杠, no 双暗刻
    (
        "{2222m}{5555m}456789p1s+1s",
        11,
        {"双暗杠": 1, "门前清": 1, "连六": 1, "无字": 1, "单钓将": 1},
    ),
    (
        "{7777p}{1111z}2345679s+9s self-drawn",
        17,
        {"双暗杠": 1, "不求人": 1, "圈风刻": 1, "门风刻": 1, "连六": 1, "缺一门": 1, "单钓将": 1},
    ),
    # 双箭刻 Two Dragons Pungs
    (
        "123789m2p555666z+2p",
        13,
        {"双箭刻": 1, "门前清": 1, "双暗刻": 1, "老少副": 1, "缺一门": 1, "单钓将": 1},
    ),
    # 全带幺 Outside Hand
    (
        "123789m999p123s1z+1z",
        10,
        {"全带幺": 1, "门前清": 1, "喜相逢": 1, "老少副": 1, "幺九刻": 1, "单钓将": 1},
    ),
    # T52-like: 自摸 + 单钓
    (
        "[123m][555z][789p][111s]9m+9m self-drawn",
        9,
        {"全带幺": 1, "箭刻": 1, "幺九刻": 1, "单钓将": 1, "自摸": 1},
    ),
    # 不求人 Fully Concealed Hand
    # T11b
    ("11m555p789p123s99s+1m self-drawn", 8, {"不求人": 1, "双暗刻": 1, "幺九刻": 1, "无字": 1}),
    # T14 formal multi-wait (5th 4m) -> no 单钓
    ("1234444678m456p+1m self-drawn", 8, {"不求人": 1, "四归一": 1, "缺一门": 1, "无字": 1}),
    # 双明杠 Two Melded Kongs
    (
        "[1111z][2222z]123m456m9p+9p",
        12,
        {"双明杠": 1, "圈风刻": 1, "门风刻": 1, "连六": 1, "幺九刻": 1, "缺一门": 1, "单钓将": 1},
    ),
    ("[2222m][5555m]456789p1s+1s", 7, {"双明杠": 1, "连六": 1, "无字": 1, "单钓将": 1}),
    # 和绝张 Last Tile
    # T16 和绝张 forced by own melds; pung + chow 四归一
    ("[666m]45m456789p11s+6m", 9, {"和绝张": 1, "四归一": 1, "喜相逢": 1, "连六": 1, "无字": 1}),
    # 箭刻 Dragon Pung
    (
        "[123m][555z][789p][111s]5m+5m self-drawn",
        5,
        {"箭刻": 1, "幺九刻": 1, "单钓将": 1, "自摸": 1},
    ),
    ("[777z]5m789p123456s+5m", 4, {"箭刻": 1, "连六": 1, "单钓将": 1}),
    # 门前清 Concealed Hand
    # T12 1m read into 123m: pung stays concealed
    ("11123m555p789p99s+1m", 8, {"门前清": 1, "四归一": 1, "双暗刻": 1, "幺九刻": 1, "无字": 1}),
    # T03 3 chows: cap 2
    ("112233m123p555s9s+9s", 6, {"门前清": 1, "一般高": 1, "喜相逢": 1, "无字": 1, "单钓将": 1}),
    # T11 shanpon on a discard: 111m counts as melded; <8 is returned
    ("11m555p789p123s99s+1m", 4, {"门前清": 1, "幺九刻": 1, "无字": 1}),
    # T13 edge beats single
    ("1233m456p789p111s+3m", 6, {"门前清": 1, "连六": 1, "幺九刻": 1, "无字": 1, "边张": 1}),
    # T06 trimming starts at 老少副
    ("123789m123789p2s+2s", 8, {"门前清": 1, "平和": 1, "喜相逢": 2, "老少副": 1, "单钓将": 1}),
    # T02 account-once: not 喜相逢 x2
    (
        "234s22334567p55s+4p",
        10,
        {"门前清": 1, "平和": 1, "断幺": 1, "一般高": 1, "喜相逢": 1, "连六": 1, "缺一门": 1},
    ),
    # T01 account-once: 4 chows, cap 3
    ("99m23567p234567s+4p", 7, {"门前清": 1, "平和": 1, "喜相逢": 2, "连六": 1}),
    ("{2222m}456789p1123s+1s", 6, {"门前清": 1, "暗杠": 1, "连六": 1, "无字": 1}),
    # 四归一 Tile Hog
    # zheng-fan/GB-Mahjong #3: 四归一 after kongs
    ("[1111m][222s]78999s44p+9s", 6, {"四归一": 1, "幺九刻": 2, "明杠": 1, "无字": 1}),
    # zheng-fan/GB-Mahjong #2: no wait fan on a multi-wait
    ("[444z]78889m11888p+8m", 8, {"四归一": 1, "双同刻": 1, "双暗刻": 1, "幺九刻": 1, "缺一门": 1}),
    # 双同刻 Double Pung
    # T63
    (
        "[9999m]1235m999p111s+5m",
        10,
        {"双同刻": 1, "双暗刻": 1, "幺九刻": 3, "明杠": 1, "无字": 1, "单钓将": 1},
    ),
    # 连六 Short Straight
    # T26 明暗杠
    ("{2222m}[5555m]456789p1s+1s", 8, {"连六": 1, "无字": 1, "单钓将": 1, "明暗杠": 1}),
    # 老少副 Two Terminal Chows
    (
        "[2222m]{5555m}123789p1s+1s self-drawn",
        9,
        {"老少副": 1, "无字": 1, "单钓将": 1, "自摸": 1, "明暗杠": 1},
    ),
]

ZH_TO_KEY = {f.zh: f.key for f in FANS}


@pytest.mark.parametrize(("text", "total", "fans"), GOLDEN, ids=[row[0] for row in GOLDEN])
def test_golden_hand(text, total, fans):
    s = mjstats.score(text)
    assert {f.zh: f.count for f in s.fans} == fans, str(s)
    assert s.total == total
    assert s.total == sum(f.points * f.count for f in s.fans)


def test_every_fan_has_two_golden_hands():
    hits = {f.key: 0 for f in FANS}
    for _, _, fans in GOLDEN:
        for zh in fans:
            hits[ZH_TO_KEY[zh]] += 1
    assert {k: n for k, n in hits.items() if n < 2} == {}


def _exclusion_cases():
    cases = []
    for a in FANS:
        rows = [text for text, _, fans in GOLDEN if a.zh in fans]
        for b in a.excludes:
            cases.append(pytest.param(a.key, b, rows, id=f"{a.key}-excludes-{b}"))
    return cases


@pytest.mark.parametrize(("fan", "excluded", "rows"), _exclusion_cases())
def test_exclusion(fan, excluded, rows):
    """Where ``fan`` scores, ``excluded`` (one of its 不计) does not."""
    assert rows, f"no golden hand has {fan}"
    for text in rows:
        keys = {f.key for f in mjstats.score(text).fans}
        assert fan in keys
        assert excluded not in keys, text


# Exclusions whose excluded fan would apply to the tiles if it were not
# suppressed: (hand, fan present, fan suppressed).
SUPPRESSED = [
    ("EEESSSWWWNNN1m+1m", "big_four_winds", "all_pungs"),
    ("EEESSSWWWNNN1m+1m", "big_four_winds", "pung_of_terminals_or_honors"),
    ("EEESSSWWWNNN1m+1m", "big_four_winds", "prevalent_wind"),
    ("EEESSSWWWNNN1m+1m", "big_four_winds", "seat_wind"),
    ("[111z][555z][777z]666z2z+2z", "big_three_dragons", "dragon_pung"),
    ("22334466688s66z+6z", "all_green", "half_flush"),
    ("1112345678999m+1m", "nine_gates", "full_flush"),
    ("1112345678999m+1m", "nine_gates", "concealed_hand"),
    ("1112345678999m+1m", "nine_gates", "no_honors"),
    ("[1111m][2222p][3333s]{4444s}5p+5p", "four_kongs", "single_wait"),
    ("[1111m][2222p][3333s]{4444s}5p+5p", "four_kongs", "three_kongs"),
    ("[1111m][2222p][3333s]{4444s}5p+5p", "four_kongs", "all_pungs"),
    ("2233445566778s+8s", "seven_shifted_pairs", "seven_pairs"),
    ("2233445566778s+8s", "seven_shifted_pairs", "full_flush"),
    ("3344556677889p+9p self-drawn", "seven_shifted_pairs", "fully_concealed_hand"),
    ("19m19p19s1234567z+7z", "thirteen_orphans", "all_types"),
    ("19m19p19s1234567z+7z", "thirteen_orphans", "single_wait"),
    ("19m19p19s1234567z+7z", "thirteen_orphans", "all_terminals_and_honors"),
    ("111999m111p999s1s+1s", "all_terminals", "double_pung"),
    ("111999m111p999s1s+1s", "all_terminals", "all_pungs"),
    ("111999m111p999s1s+1s", "all_terminals", "no_honors"),
    ("111999m111p999s1s+1s", "all_terminals", "pung_of_terminals_or_honors"),
    ("111999m111p999s1s+1s", "all_terminals", "outside_hand"),
    ("[111z][222z]333z44z12m+3m", "little_four_winds", "big_three_winds"),
    ("[111z][222z]333z44z12m+3m", "little_four_winds", "pung_of_terminals_or_honors"),
    ("123456p5666777z+5z", "little_three_dragons", "two_dragons_pungs"),
    ("123456p5666777z+5z", "little_three_dragons", "dragon_pung"),
    ("111z222z333z55z66z+6z", "all_honors", "all_pungs"),
    ("111z222z333z55z66z+6z", "all_honors", "pung_of_terminals_or_honors"),
    ("111z222z333z55z66z+6z", "all_honors", "outside_hand"),
    ("111m222p333s444p5s+5s self-drawn", "four_concealed_pungs", "all_pungs"),
    ("111m222p333s444p5s+5s self-drawn", "four_concealed_pungs", "fully_concealed_hand"),
    ("{1111m}555m222p3338s+8s", "four_concealed_pungs", "concealed_hand"),
    ("123m123m789m789m5m+5m", "pure_terminal_chows", "full_flush"),
    ("123m123m789m789m5m+5m", "pure_terminal_chows", "all_chows"),
    ("123m123m789m789m5m+5m", "pure_terminal_chows", "pure_double_chow"),
    ("123m123m789m789m5m+5m", "pure_terminal_chows", "two_terminal_chows"),
    ("1122335577889m+9m", "pure_terminal_chows", "seven_pairs"),
    ("111122223333s4s+4s", "quadruple_chow", "tile_hog"),
    ("111122223333s4s+4s", "quadruple_chow", "pure_triple_chow"),
    ("111m222m333m444m5p+5p", "four_pure_shifted_pungs", "pure_shifted_pungs"),
    ("111m222m333m444m5p+5p", "four_pure_shifted_pungs", "all_pungs"),
    ("123m234m345m456m9s+9s", "four_pure_shifted_chows", "pure_shifted_chows"),
    ("[1111m][2222m][3333m]456p5s+5s", "three_kongs", "melded_kong"),
    ("[111m][999p]11z111s99s+9s", "all_terminals_and_honors", "all_pungs"),
    ("[111m][999p]11z111s99s+9s", "all_terminals_and_honors", "outside_hand"),
    ("[111m][999p]11z111s99s+9s", "all_terminals_and_honors", "pung_of_terminals_or_honors"),
    ("1133m5577p99s115z+5z", "seven_pairs", "concealed_hand"),
    ("1133m5577p99s115z+5z", "seven_pairs", "single_wait"),
    ("244m2244p446688s+2m self-drawn", "seven_pairs", "fully_concealed_hand"),
    ("14m258p36s123456z+7z", "greater_honors_and_knitted_tiles", "lesser_honors_and_knitted_tiles"),
    ("14m258p36s123456z+7z", "greater_honors_and_knitted_tiles", "all_types"),
    ("222m444p666s88s44m+4m", "all_even_pungs", "all_pungs"),
    ("222m444p666s88s44m+4m", "all_even_pungs", "all_simples"),
    ("222m444p666s88s44m+4m", "all_even_pungs", "no_honors"),
    ("1112346778999m+5m", "full_flush", "no_honors"),
    ("1112346778999m+5m", "full_flush", "one_voided_suit"),
    ("[567m]556677m9p123s+9p", "pure_triple_chow", "pure_double_chow"),
    ("777789m888p8999s+8s", "upper_tiles", "no_honors"),
    ("455556m4456p456s+4p", "middle_tiles", "all_simples"),
    ("111123m1223p123s+2p", "lower_tiles", "no_honors"),
    ("123456789m12p99s+3p", "pure_straight", "short_straight"),
    ("123m789m123s789s5p+5p", "three_suited_terminal_chows", "mixed_double_chow"),
    ("123m789m123s789s5p+5p", "three_suited_terminal_chows", "two_terminal_chows"),
    ("123m789m123s789s5p+5p", "three_suited_terminal_chows", "all_chows"),
    ("123m789m123s789s5p+5p", "three_suited_terminal_chows", "no_honors"),
    ("345555m4556p567s+5p", "all_five", "all_simples"),
    ("345555m4556p567s+5p", "all_five", "no_honors"),
    ("111m111p111s999m9s+9s", "triple_pung", "double_pung"),
    ("22233444p777s11z+3p", "three_concealed_pungs", "two_concealed_pungs"),
    ("678999m789p6667s+7s", "upper_four", "no_honors"),
    ("111123m234p3444s+3s", "lower_four", "no_honors"),
    ("[123p]123p123p55s66s+5s", "reversible_tiles", "one_voided_suit"),
    ("[234m]678m234p2349s+9s", "mixed_triple_chow", "mixed_double_chow"),
    ("12234m456p55789s+3m self-drawn last-of-wall", "last_tile_draw", "self_drawn"),
    ("[1111s]234789m456p6s+6s self-drawn kong-win", "out_with_replacement_tile", "self_drawn"),
    ("12m456p789p111s99s+3m last-of-kind kong-win", "robbing_the_kong", "last_tile"),
    ("[345p]567p789p11z22z+2z", "half_flush", "one_voided_suit"),
    ("[123m][555z][789p][111s]9m+9m", "melded_hand", "single_wait"),
    ("{2222m}{5555m}456789p1s+1s", "two_concealed_kongs", "concealed_kong"),
    ("{2222m}{5555m}456789p1s+1s", "two_concealed_kongs", "two_concealed_pungs"),
    ("123789m2p555666z+2p", "two_dragons_pungs", "dragon_pung"),
    ("1234556m789p123s+5m self-drawn", "fully_concealed_hand", "self_drawn"),
    ("1234556m789p123s+5m self-drawn", "fully_concealed_hand", "concealed_hand"),
    ("[2222m][5555m]456789p1s+1s", "two_melded_kongs", "melded_kong"),
    ("99m23567p234567s+4p", "all_chows", "no_honors"),
    ("2244668s22m44p88p+8s", "all_simples", "no_honors"),
    ("{2222m}[5555m]456789p1s+1s", "concealed_kong_and_melded_kong", "melded_kong"),
    ("{2222m}[5555m]456789p1s+1s", "concealed_kong_and_melded_kong", "concealed_kong"),
]


@pytest.mark.parametrize(("text", "fan", "suppressed"), SUPPRESSED)
def test_suppressed_fan(text, fan, suppressed):
    keys = {f.key for f in mjstats.score(text).fans}
    assert fan in keys
    assert suppressed not in keys
    assert suppressed in {f.key: 0 for f in FANS}  # a real fan key
    assert suppressed in RULESET.fans[RULESET.fan_id(fan)].excludes


def test_mingan_gang_option():
    """明暗杠 = 5 (reference, MIL ruling) or 明杠 + 暗杠 = 3 with ``mingan_gang=False``."""
    from mjstats.rules import get_ruleset

    text = "{2222m}[5555m]456789p1s+1s"
    assert mjstats.score(text).total == 8
    s = mjstats.score(text, ruleset=get_ruleset("mcr", mingan_gang=False))
    assert {f.key for f in s.fans} >= {"melded_kong", "concealed_kong"}
    assert s.total == 6


def test_knitted_straight_wait_fans_option():
    """The winning 3m lies in the knitted body (369m) and in the 123m chow: an edge
    wait counts by default (reference), not with the option off."""
    from mjstats.rules import get_ruleset

    text = "12369m258p13347s+3m"
    assert "edge_wait" in {f.key for f in mjstats.score(text).fans}
    off = get_ruleset("mcr", knitted_straight_wait_fans=False)
    s = mjstats.score(text, ruleset=off)
    assert "edge_wait" not in {f.key for f in s.fans}
    assert s.total == 16
    # a winning tile outside the body still scores its wait fan
    assert "single_wait" in {
        f.key for f in mjstats.score("147m258p369s234s5m+5m", ruleset=off).fans
    }
