// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";
import {IERC8004IdentityRegistry} from "../interfaces/IERC8004IdentityRegistry.sol";

/// @title MockIdentityRegistry
/// @notice ERC-8004-shaped identity registry for tests: an ERC-721 whose token ids are agent ids, with an
///         agent wallet per agent that is cleared whenever the agent changes hands, as in the real registry.
/// @dev The real registry sets the agent wallet only with an EIP-712 signature of that wallet; here the
///      agent's owner sets it directly. Not for deployment to a live network.
contract MockIdentityRegistry is ERC721, IERC8004IdentityRegistry {
    uint256 private _nextAgentId = 1;
    mapping(uint256 agentId => address wallet) private _agentWallets;

    /// @notice Emitted when an agent is registered.
    /// @param agentId The new agent's id.
    /// @param owner The agent's owner.
    event Registered(uint256 indexed agentId, address indexed owner);
    /// @notice Emitted when an agent wallet is set or cleared.
    /// @param agentId The agent.
    /// @param wallet The new agent wallet (zero when cleared).
    event AgentWalletSet(uint256 indexed agentId, address indexed wallet);

    /// @notice Raised when someone other than the agent's owner sets its wallet.
    /// @param agentId The agent.
    /// @param caller The account that tried.
    error NotAgentOwner(uint256 agentId, address caller);

    /// @notice Deploys the registry; the first agent registered with `register` gets id 1.
    constructor() ERC721("ERC-8004 Agent Identity (mock)", "AGENT") {}

    /// @notice Registers a new agent owned by the caller; ids start at 1.
    /// @dev Post-increment on purpose: the id handed out is the counter's value before the increment.
    /// @return agentId The new agent's id.
    function register() external returns (uint256 agentId) {
        agentId = _nextAgentId++; // solhint-disable-line gas-increment-by-one
        _mint(msg.sender, agentId);
        emit Registered(agentId, msg.sender);
    }

    /// @notice Registers an agent with a chosen id for `owner` (to mirror ids seen on a live registry).
    /// @param owner The agent's owner.
    /// @param agentId The id to mint; reverts if taken.
    function registerWithId(address owner, uint256 agentId) external {
        _mint(owner, agentId);
        emit Registered(agentId, owner);
    }

    /// @notice Sets the agent wallet. Only the agent's owner.
    /// @param agentId The agent.
    /// @param wallet The wallet the agent acts from (zero to clear).
    function setAgentWallet(uint256 agentId, address wallet) external {
        if (ownerOf(agentId) != msg.sender) revert NotAgentOwner(agentId, msg.sender);
        _agentWallets[agentId] = wallet;
        emit AgentWalletSet(agentId, wallet);
    }

    /// @inheritdoc IERC8004IdentityRegistry
    function getAgentWallet(uint256 agentId) external view returns (address) {
        return _agentWallets[agentId];
    }

    /// @inheritdoc IERC8004IdentityRegistry
    function ownerOf(uint256 agentId) public view override(ERC721, IERC8004IdentityRegistry) returns (address) {
        return super.ownerOf(agentId);
    }

    /// @inheritdoc IERC8004IdentityRegistry
    function getApproved(uint256 agentId) public view override(ERC721, IERC8004IdentityRegistry) returns (address) {
        return super.getApproved(agentId);
    }

    /// @inheritdoc IERC8004IdentityRegistry
    function isApprovedForAll(address owner, address operator)
        public
        view
        override(ERC721, IERC8004IdentityRegistry)
        returns (bool)
    {
        return super.isApprovedForAll(owner, operator);
    }

    function _update(address to, uint256 tokenId, address auth) internal override returns (address from) {
        from = super._update(to, tokenId, auth);
        if (from != address(0) && _agentWallets[tokenId] != address(0)) {
            delete _agentWallets[tokenId];
            emit AgentWalletSet(tokenId, address(0));
        }
    }
}
